import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { A2A_VERSION_HEADER, AGENT_CARD_PATH, AgentCard, Extensions, HTTP_EXTENSION_HEADER, SSE_HEADERS, formatSSEErrorEvent, formatSSEEvent } from "@a2a-js/sdk";
import { JsonRpcTransportHandler, ServerCallContext, validateVersion } from "@a2a-js/sdk/server";
import { A2A_ERROR_CODE } from "@a2a-js/sdk/errors";
import type { GroupEntry } from "../../src/core/registry";
import { agentCard, groupUrl } from "./agent-card";
import type { Gateway } from "./gateway";
import { INVALID_REQUEST, PARSE_ERROR, hasToken, invalidRequest, logSafe, readBody, rpcError, rpcId, sendJson } from "./http-io";
import { REQUEST_SIGNAL } from "./note-executor";
import { GroupRequestHandler } from "./request-handler";

// `a2a serve` on plain node:http (contract v2, section 8): `/` lists the served groups, each group
// has its card at `/groups/<id>/.well-known/agent-card.json` and its JSON-RPC endpoint at
// `/groups/<id>/`. Before the SDK sees a call: the token (401), the size (413, unread), UTF-8 and
// JSON (-32700), the JSON-RPC shape (-32600) and the A2A-Version header (-32009). One log line per
// request goes to stderr; nothing a client sends is written anywhere but into a request note.

export interface HttpServerOptions {
	host: string;
	port: number;
	/** The bearer token every JSON-RPC call must carry, or null (loopback only). */
	token: string | null;
	log: (line: string) => void;
	/** The longest a blocking SendMessage waits, in ms (240 s unless a test gives less). */
	maxWaitMs?: number;
}

interface Agent {
	entry: GroupEntry;
	transport: JsonRpcTransportHandler;
}

const CARD_SUFFIX = `/${AGENT_CARD_PATH}`;

export class A2aHttpServer {
	private readonly server = http.createServer();
	private readonly agents = new Map<string, Agent>();
	private readonly inFlight = new Set<AbortController>();
	private base = "";

	constructor(
		private readonly gateway: Gateway,
		private readonly options: HttpServerOptions,
	) {
		this.server.on("request", (req, res) => void this.handle(req, res));
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
			const handler = new GroupRequestHandler(this.gateway, entry.id, this.card(entry, this.base), { maxWaitMs: this.options.maxWaitMs });
			this.agents.set(entry.id, { entry, transport: new JsonRpcTransportHandler(handler) });
		}
	}

	groups(): GroupEntry[] {
		return [...this.agents.values()].map((a) => a.entry);
	}

	private card(entry: GroupEntry, base: string): AgentCard {
		return agentCard(entry, base, this.options.token !== null);
	}

	/** The base URL a client reached: the bound address, or the Host header when bound to every address. */
	private baseFor(req: http.IncomingMessage): string {
		const wildcard = this.options.host === "0.0.0.0" || this.options.host === "::";
		const host = req.headers.host ?? "";
		return wildcard && /^[A-Za-z0-9.\-:[\]]{1,255}$/.test(host) ? `http://${host}/` : this.base;
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const started = Date.now();
		let rpcMethod = "-";
		res.on("close", () => {
			const status = res.writableFinished ? String(res.statusCode) : `${res.statusCode}-aborted`;
			this.options.log(`${new Date(started).toISOString()} ${logSafe(req.method ?? "?", 10)} ${logSafe(req.url ?? "?")} ${status} ${logSafe(rpcMethod, 40)} ${Date.now() - started}ms`);
		});
		try {
			rpcMethod = (await this.route(req, res)) ?? "-";
		} catch (error) {
			this.options.log(`internal error: ${error instanceof Error ? error.message : String(error)}`);
			if (!res.headersSent) sendJson(res, 500, rpcError(null, A2A_ERROR_CODE.INTERNAL_ERROR, "internal error"));
			else res.end();
		}
	}

	/** Answers one request; returns the JSON-RPC method it called, when it called one. */
	private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<string | undefined> {
		if (this.options.token === null && !isLocalHost(req.headers.host, this.options.host)) {
			// Without a token the server trusts its callers to be on this machine: a page whose name
			// was rebound to 127.0.0.1 comes with its own name as Host, and is refused.
			sendJson(res, 421, { error: "this server answers only calls addressed to this machine (Host 127.0.0.1, localhost or its bound address); serve with --token-file to accept others" });
			return undefined;
		}
		const path = (req.url ?? "/").split("?")[0];
		if (path === "/" && (req.method === "GET" || req.method === "HEAD")) {
			this.index(req, res);
			return undefined;
		}
		const match = /^\/groups\/([^/]+)(\/.*)?$/.exec(path);
		let group: string | null = null;
		try {
			group = match ? decodeURIComponent(match[1]) : null;
		} catch {
			group = null;
		}
		const agent = group === null ? undefined : this.agents.get(group);
		const rest = match?.[2] ?? "";
		if (!agent || (rest !== "" && rest !== "/" && rest !== CARD_SUFFIX)) {
			const served = this.groups().map((g) => g.id).join(", ") || "none";
			sendJson(res, 404, rpcError(null, A2A_ERROR_CODE.METHOD_NOT_FOUND, `no A2A agent at ${logSafe(path)}: the served groups are at /groups/<id>/ (${served}); GET / lists them`));
			return undefined;
		}
		if (rest === CARD_SUFFIX) {
			if (req.method === "GET" || req.method === "HEAD") sendJson(res, 200, AgentCard.toJSON(this.card(agent.entry, this.baseFor(req))));
			else sendJson(res, 405, { error: "use GET for an agent card" }, { Allow: "GET" });
			return undefined;
		}
		if (req.method === "POST") return this.call(agent, req, res);
		sendJson(res, 405, rpcError(null, INVALID_REQUEST, "JSON-RPC calls use POST"), { Allow: "POST" });
		return undefined;
	}

	private index(req: http.IncomingMessage, res: http.ServerResponse): void {
		const base = this.baseFor(req);
		const groups = this.groups().map((g) => ({ id: g.id, description: g.description ?? null, url: groupUrl(base, g.id), card: `${groupUrl(base, g.id)}${AGENT_CARD_PATH}` }));
		sendJson(res, 200, { name: "A2A Relay", protocol_version: "1.0", gateway_group: this.gateway.gatewayId(), groups });
	}

	private async call(agent: Agent, req: http.IncomingMessage, res: http.ServerResponse): Promise<string | undefined> {
		if (this.options.token !== null && !hasToken(req, this.options.token)) {
			sendJson(res, 401, { error: "unauthorized: send Authorization: Bearer <token>" }, { "WWW-Authenticate": 'Bearer realm="a2a-relay"' });
			return undefined;
		}
		const read = await readBody(req);
		if (!read.ok) {
			if (read.status === 413) {
				// The rest of an oversized body is never read: the connection goes once the answer is out.
				res.on("finish", () => req.socket.destroy());
				sendJson(res, 413, rpcError(null, INVALID_REQUEST, read.message), { Connection: "close" });
			} else sendJson(res, 200, rpcError(null, PARSE_ERROR, read.message));
			return undefined;
		}
		let body: unknown;
		try {
			body = JSON.parse(read.text);
		} catch (error) {
			sendJson(res, 200, rpcError(null, PARSE_ERROR, `the body is not JSON: ${(error as Error).message}`));
			return undefined;
		}
		const id = rpcId(body);
		const invalid = invalidRequest(body);
		if (invalid) {
			sendJson(res, 200, rpcError(id, INVALID_REQUEST, invalid));
			return undefined;
		}
		const method = (body as { method: string }).method;
		const versionHeader = req.headers[A2A_VERSION_HEADER.toLowerCase()];
		const context = new ServerCallContext({
			requestedVersion: typeof versionHeader === "string" && versionHeader !== "" ? versionHeader : undefined,
			requestedExtensions: Extensions.parseServiceParameter(req.headers[HTTP_EXTENSION_HEADER.toLowerCase()] as string | undefined),
		});
		try {
			validateVersion(context.requestedVersion, this.card(agent.entry, this.base), "JSONRPC");
		} catch (error) {
			sendJson(res, 200, { jsonrpc: "2.0", id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) });
			return method;
		}
		const abort = new AbortController();
		this.inFlight.add(abort);
		res.on("close", () => {
			abort.abort();
			this.inFlight.delete(abort);
		});
		context.state.set(REQUEST_SIGNAL, abort.signal);
		const result = await agent.transport.handle(body as Record<string, unknown>, context);
		const extensions: Record<string, string> = {};
		if (context.activatedExtensions?.length) extensions[HTTP_EXTENSION_HEADER] = Extensions.toServiceParameter(context.activatedExtensions);
		if (Symbol.asyncIterator in result) await this.stream(result, id, res, extensions);
		else sendJson(res, 200, result, extensions);
		return method;
	}

	/** SSE: the first event is pulled before the headers, so an early error is a plain JSON-RPC error. */
	private async stream(events: AsyncGenerator<unknown, void, undefined>, id: unknown, res: http.ServerResponse, headers: Record<string, string>): Promise<void> {
		let first: IteratorResult<unknown, void>;
		try {
			first = await events.next();
		} catch (error) {
			sendJson(res, 200, { jsonrpc: "2.0", id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) }, headers);
			return;
		}
		res.writeHead(200, { ...SSE_HEADERS, ...headers });
		try {
			for (let next = first; !next.done; next = await events.next()) {
				if (res.destroyed) break;
				res.write(formatSSEEvent(next.value));
			}
		} catch (error) {
			res.write(formatSSEErrorEvent({ jsonrpc: "2.0", id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) }));
		} finally {
			await events.return(undefined);
			res.end();
		}
	}

	/** Stops: ends every stream and wait, drops the connections, closes the listener. */
	async close(): Promise<void> {
		for (const abort of this.inFlight) abort.abort();
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}

/** True when a Host header names this machine: a loopback name or address, or the address the server is bound to. */
function isLocalHost(header: string | undefined, bound: string): boolean {
	if (header === undefined) return true;
	const name = header.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1").toLowerCase();
	return name === "localhost" || name === "127.0.0.1" || name === "::1" || name === bound.toLowerCase() || /^127(\.\d{1,3}){3}$/.test(name);
}
