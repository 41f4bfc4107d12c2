import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { AGENT_CARD_PATH } from "@a2a-js/sdk";
import type { AgentCard } from "@a2a-js/sdk";
import { A2A_ERROR_CODE } from "@a2a-js/sdk/errors";
import type { GroupEntry } from "../../src/core/registry";
import { agentCard, groupUrl } from "./agent-card";
import { agentApps } from "./agent-app";
import type { AgentApps } from "./agent-app";
import { AgentCalls } from "./agent-calls";
import type { Gateway } from "./gateway";
import { INVALID_REQUEST, crossSiteRefusal, hasToken, isLocalHost, logSafe, rpcError, sendJson } from "./http-io";
import { GroupRequestHandler } from "./request-handler";
import { WaitingGate } from "./waiting-calls";

// `a2a serve` on node:http (contract v3, section 8). Without a group: `/` lists the served groups,
// each group has its card at `/groups/<id>/.well-known/agent-card.json`, its JSON-RPC endpoint at
// `/groups/<id>/` and its HTTP+JSON binding below the same URL (`/groups/<id>/message:send`...). With `group` (`serve --group`)
// that one group is a plain agent at the root. Before the SDK's handlers (agent-app.ts) see a call:
// the host (421), the token (401), the size (413, unread), UTF-8 and JSON (-32700), the JSON-RPC shape
// (-32600), and the bound on calls that wait (503 with Retry-After). A JSON-RPC call without an
// A2A-Version header whose method is a v1.0 method is served as v1.0; other header-less calls go to
// the SDK's v0.3 layer. Headers and bodies must arrive within set times. One log line per request
// goes to stderr; nothing a client sends is written anywhere but into a request note. This file
// checks the host and the token and finds the agent and the binding; agent-calls.ts reads and checks
// the body, counts the calls that wait and hands each call on.

export interface HttpServerOptions {
	host: string;
	port: number;
	/** The bearer token every call must carry, or null (loopback only). */
	token: string | null;
	log: (line: string) => void;
	/** The longest a blocking SendMessage waits, in ms (240 s unless a test gives less). */
	maxWaitMs?: number;
	/** Serve this group alone, as a plain agent at the root. */
	group?: string;
	/** How many calls that wait (blocking sends, streams) are held at once (shared with the gRPC listener); past it, 503. */
	waiting?: WaitingGate;
	/** The address of the gRPC listener serving the group (`serve --group` with `--grpc-port`), listed on its card. */
	grpcUrl?: string;
	/** A request's headers must have arrived by this time (ms), its body by `requestTimeoutMs`. */
	headersTimeoutMs?: number;
	requestTimeoutMs?: number;
	/** How often Node looks for requests past those times (ms). */
	timeoutCheckMs?: number;
}

export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;

interface Agent {
	entry: GroupEntry;
	handler: GroupRequestHandler;
	apps: AgentApps;
}

const CARD_SUFFIX = `/${AGENT_CARD_PATH}`;

export class A2aHttpServer {
	private readonly server: http.Server;
	private readonly agents = new Map<string, Agent>();
	/** A checked call's way on to the SDK (agent-calls.ts), with the bound on waiting calls. */
	private readonly calls: AgentCalls;
	private base = "";

	constructor(
		private readonly gateway: Gateway,
		private readonly options: HttpServerOptions,
	) {
		const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
		this.server = http.createServer({
			headersTimeout,
			requestTimeout: Math.max(options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, headersTimeout),
			connectionsCheckingInterval: options.timeoutCheckMs ?? 1000,
		});
		this.server.on("request", (req, res) => void this.handle(req, res));
		this.calls = new AgentCalls(options.waiting ?? new WaitingGate());
	}

	/** Listens; resolves with the server's base URL (ending with `/`). */
	async listen(): Promise<string> {
		await new Promise<void>((resolve, reject) => {
			this.server.once("error", reject);
			this.server.listen(this.options.port, this.options.host, () => resolve());
		});
		const { port } = this.server.address() as AddressInfo;
		const host = this.options.host.includes(":") ? `[${this.options.host}]` : this.options.host;
		this.base = `http://${host}:${port}/`;
		this.rebuild();
		return this.base;
	}

	/** Builds the agents again from the registry (at start and after each registry change). */
	rebuild(): void {
		this.agents.clear();
		for (const entry of this.gateway.servedGroups()) {
			if (this.options.group !== undefined && entry.id !== this.options.group) continue;
			const handler = new GroupRequestHandler(this.gateway, entry.id, this.card(entry, this.base), { maxWaitMs: this.options.maxWaitMs });
			this.agents.set(entry.id, { entry, handler, apps: agentApps(handler, (req) => this.card(entry, this.baseFor(req))) });
		}
	}

	/** The request handler serving a group now (a registry change builds new ones). */
	handlerFor(group: string): GroupRequestHandler | undefined {
		return this.agents.get(group)?.handler;
	}

	groups(): GroupEntry[] {
		return [...this.agents.values()].map((a) => a.entry);
	}

	/** The URL of a served group's agent: its folder under /groups/, or the root when serving one group. */
	agentUrl(base: string, group: string): string {
		return this.options.group !== undefined ? base : groupUrl(base, group);
	}

	private card(entry: GroupEntry, base: string): AgentCard {
		return agentCard(entry, this.agentUrl(base, entry.id), this.options.token !== null, this.options.grpcUrl);
	}

	/** The base URL a client reached: the bound address, or the Host header when bound to every address. */
	private baseFor(req: http.IncomingMessage): string {
		const wildcard = this.options.host === "0.0.0.0" || this.options.host === "::";
		const host = req.headers.host ?? "";
		return wildcard && /^[A-Za-z0-9.\-:[\]]{1,255}$/.test(host) ? `http://${host}/` : this.base;
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const started = Date.now();
		const url = req.url ?? "?";
		let rpcMethod = "-";
		res.on("close", () => {
			const status = res.writableFinished ? String(res.statusCode) : `${res.statusCode}-aborted`;
			this.options.log(`${new Date(started).toISOString()} ${logSafe(req.method ?? "?", 10)} ${logSafe(url)} ${status} ${logSafe(rpcMethod, 40)} ${Date.now() - started}ms`);
		});
		try {
			rpcMethod = (await this.route(req, res)) ?? "-";
		} catch (error) {
			this.options.log(`internal error: ${error instanceof Error ? error.message : String(error)}`);
			if (!res.headersSent) sendJson(res, 500, rpcError(null, A2A_ERROR_CODE.INTERNAL_ERROR, "internal error"));
			else res.end();
		}
	}

	/** The served agent a path names, and the path below it; null when it names none. */
	private agentAt(path: string): { agent: Agent; rest: string } | null {
		if (this.options.group !== undefined) {
			const agent = this.agents.get(this.options.group);
			return agent ? { agent, rest: path } : null;
		}
		const match = /^\/groups\/([^/]+)(\/.*)?$/.exec(path);
		if (!match) return null;
		let group: string;
		try {
			group = decodeURIComponent(match[1]);
		} catch {
			return null;
		}
		const agent = this.agents.get(group);
		return agent ? { agent, rest: match[2] ?? "" } : null;
	}

	/** Answers one request; returns the JSON-RPC method it called, when it called one. */
	private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<string | undefined> {
		if (this.options.token === null && !isLocalHost(req.headers.host, this.options.host)) {
			// Without a token the server trusts its callers to be on this machine: a page whose name
			// was rebound to 127.0.0.1 comes with its own name as Host, and is refused.
			sendJson(res, 421, { error: "this server answers only calls addressed to this machine (Host 127.0.0.1, localhost or its bound address); serve with --token-file to accept others" });
			return undefined;
		}
		const crossSite = crossSiteRefusal(req);
		if (crossSite !== null) {
			sendJson(res, crossSite.startsWith("the body") ? 415 : 403, { error: crossSite });
			return undefined;
		}
		const [path, query = ""] = (req.url ?? "/").split(/\?(.*)/s, 2);
		const read = req.method === "GET" || req.method === "HEAD";
		if (path === "/" && read) {
			this.index(req, res);
			return undefined;
		}
		const found = this.agentAt(path);
		const rest = found?.rest ?? "";
		// JSON-RPC is the agent's URL itself; the HTTP+JSON binding's paths follow it (`/message:send`, `/tasks/...`, v0.3's `/v1/...`).
		const restBinding = rest !== "" && rest !== "/" && rest !== CARD_SUFFIX;
		if (!found) {
			const served = this.groups().map((g) => g.id).join(", ") || "none";
			const where = this.options.group !== undefined ? `the agent is at / (its card at ${CARD_SUFFIX})` : `the served groups are at /groups/<id>/ (${served}); GET / lists them`;
			sendJson(res, 404, rpcError(null, A2A_ERROR_CODE.METHOD_NOT_FOUND, `no A2A agent at ${logSafe(path)}: ${where}`));
			return undefined;
		}
		req.url = `${rest === "" ? "/" : rest}${query === "" ? "" : `?${query}`}`;
		if (rest === CARD_SUFFIX) {
			if (read) found.agent.apps.card(req, res);
			else sendJson(res, 405, { error: "use GET for an agent card" }, { Allow: "GET" });
			return undefined;
		}
		if (this.options.token !== null && !hasToken(req, this.options.token)) {
			sendJson(res, 401, { error: "unauthorized: send Authorization: Bearer <token>" }, { "WWW-Authenticate": 'Bearer realm="a2a-relay"' });
			return undefined;
		}
		if (restBinding) return this.calls.restCall(found.agent.apps, req, res, rest);
		if (req.method === "POST") return this.calls.rpcCall(found.agent.apps, req, res);
		sendJson(res, 405, rpcError(null, INVALID_REQUEST, "JSON-RPC calls use POST"), { Allow: "POST" });
		return undefined;
	}

	private index(req: http.IncomingMessage, res: http.ServerResponse): void {
		const base = this.baseFor(req);
		const groups = this.groups().map((g) => ({ id: g.id, description: g.description ?? null, url: this.agentUrl(base, g.id), card: `${this.agentUrl(base, g.id)}${AGENT_CARD_PATH}` }));
		sendJson(res, 200, { name: "A2A Relay", protocol_version: "1.0", gateway_group: this.gateway.gatewayId(), groups });
	}

	/** Stops: ends every stream and wait, drops the connections, closes the listener. */
	async close(): Promise<void> {
		this.calls.endAll();
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}
