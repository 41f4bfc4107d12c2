import { requestUrl } from "obsidian";
import type { App, RequestUrlResponse } from "obsidian";
import { ROUTING_EXTENSION } from "../core/a2a-routing";
import { A2A_METHOD, A2A_VERSION, taskWithMessage } from "../core/a2a-wire";
import type { WireSendParams, WireSendResult, WireTask } from "../core/a2a-wire";
import type { GroupEntry } from "../core/registry";
import { tokenRefusal } from "../core/remote-request";
import { isPlainObject } from "../core/text";
import type { RemoteAgents, RemoteCall } from "../router/remote-agents";
import { SecretApprovals } from "./secret-approvals";

// The plugin's way to call remote A2A agents (src/router/remote-agents.ts): A2A v1.0 JSON-RPC over
// HTTP through Obsidian's requestUrl (desktop and mobile, no CORS), with no SDK in main.js. The
// agent's card is read once per group (its JSON-RPC interface URL); a group's `token_secret:` names a
// secret in Obsidian's secret storage (never a vault file) whose value is sent as `Authorization:
// Bearer`, only to the registry url's origin (a card naming another is refused), and only when the
// user chose that secret for that origin on this device (secret-approvals.ts). Only http(s) URLs are
// called.

/** A URL as fetch parses and calls it, or the text as it is when it does not parse. */
function canonicalUrl(url: string): string {
	try {
		return new URL(url).href;
	} catch {
		return url;
	}
}

/** JSON-RPC's "task not found" of A2A. */
const TASK_NOT_FOUND = -32001;

interface RpcReply {
	status: number;
	text: string;
}

function errorOf(status: number, text: string): Extract<RemoteCall, { ok: false }> | null {
	if (status >= 200 && status < 300) return null;
	const later = status >= 500 || status === 408 || status === 429;
	const auth = status === 401 || status === 403 ? " (the token of the group's token_secret was not accepted)" : "";
	return { ok: false, kind: later ? "transport" : "refused", reason: `HTTP ${status}${auth}${text.trim() === "" ? "" : `: ${text.slice(0, 200)}`}` };
}

/** A group's secret cannot be sent (not set, or not one token): the request is refused, not tried again. */
class SecretRefusal extends Error {}

export class RequestUrlRemoteAgents implements RemoteAgents {
	private readonly endpoints = new Map<string, string>();
	private nextId = 1;

	private readonly approvals: SecretApprovals;

	constructor(private readonly app: App) {
		this.approvals = new SecretApprovals(app);
	}

	private async headers(group: GroupEntry): Promise<Record<string, string>> {
		const headers: Record<string, string> = { "A2A-Version": A2A_VERSION, "A2A-Extensions": ROUTING_EXTENSION, Accept: "application/json" };
		if (group.tokenSecret === undefined) return headers;
		// Only to an address the user chose this secret for on this device: a registry edited elsewhere cannot redirect it.
		if (!this.approvals.approved(group.tokenSecret, group.url ?? "")) {
			throw new SecretRefusal(`secret ${group.tokenSecret} of ${group.id} was not chosen for ${group.url ?? ""} on this device: pick it in Settings → A2A Relay → Groups to send it there`);
		}
		const token = (this.app.secretStorage.getSecret(group.tokenSecret) ?? "").trim();
		if (token === "") throw new SecretRefusal(`secret ${group.tokenSecret} of ${group.id} is not set: pick or create it in Settings → A2A Relay → Groups`);
		if (/\s/.test(token)) throw new SecretRefusal(`secret ${group.tokenSecret} of ${group.id} must hold one token without spaces`);
		headers.Authorization = `Bearer ${token}`;
		return headers;
	}

	private base(group: GroupEntry): string {
		const url = group.url ?? "";
		if (!/^https?:\/\//i.test(url)) throw new Error(`${group.id}: only http:// and https:// agents are called, not ${url}`);
		return url.endsWith("/") ? url : `${url}/`;
	}

	private async request(url: string, init: { method: string; headers: Record<string, string>; body?: string }, signal: AbortSignal): Promise<RpcReply> {
		if (signal.aborted) throw new Error("the call was stopped");
		let stop: () => void = () => undefined;
		const stopped = new Promise<never>((_, reject) => {
			stop = () => reject(new Error("the call took too long and was stopped"));
			signal.addEventListener("abort", stop);
		});
		try {
			const response: RequestUrlResponse = await Promise.race([requestUrl({ url, method: init.method, headers: init.headers, body: init.body, contentType: init.body === undefined ? undefined : "application/json", throw: false }), stopped]);
			return { status: response.status, text: response.text };
		} finally {
			signal.removeEventListener("abort", stop);
		}
	}

	/** The agent's JSON-RPC URL, from its card (read once per group and URL). */
	private async endpoint(group: GroupEntry, headers: Record<string, string>, signal: AbortSignal): Promise<string | RemoteCall> {
		const base = this.base(group);
		let url = this.endpoints.get(base);
		if (url === undefined) {
			const reply = await this.request(`${base}.well-known/agent-card.json`, { method: "GET", headers }, signal);
			const failed = errorOf(reply.status, reply.text);
			if (failed) return failed;
			const card: unknown = JSON.parse(reply.text);
			const interfaces = isPlainObject(card) && Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : [];
			const rpc = interfaces.find((i): i is { url: string } => isPlainObject(i) && i.protocolBinding === "JSONRPC" && typeof i.url === "string");
			// Called as parsed (a backslash is a slash), so the address checked is the address called.
			url = canonicalUrl(rpc?.url ?? base);
			if (!/^https?:\/\//i.test(url)) return { ok: false, kind: "refused", reason: `the agent's card names ${url}, which is not an http(s) address` };
			this.endpoints.set(base, url);
		}
		// Checked on every call, also for an endpoint learnt earlier (by a group of the same url without a token).
		const refusal = group.tokenSecret === undefined ? null : tokenRefusal(group.id, base, url);
		if (refusal !== null) return { ok: false, kind: "refused", reason: refusal };
		return url;
	}

	/** One JSON-RPC call: its result as JSON with the answer's size, or why there is none. */
	private async rpc(group: GroupEntry, method: string, params: unknown, signal: AbortSignal): Promise<{ ok: true; result: unknown; bytes: number } | Extract<RemoteCall, { ok: false }>> {
		try {
			const headers = await this.headers(group);
			const url = await this.endpoint(group, headers, signal);
			if (typeof url !== "string") return url;
			const body = JSON.stringify({ jsonrpc: "2.0", id: this.nextId++, method, params });
			const reply = await this.request(url, { method: "POST", headers, body }, signal);
			const failed = errorOf(reply.status, reply.text);
			if (failed) {
				if (failed.kind === "transport") this.endpoints.clear();
				return failed;
			}
			const json: unknown = JSON.parse(reply.text);
			if (!isPlainObject(json)) return { ok: false, kind: "refused", reason: "the agent's answer is not a JSON-RPC response" };
			if (isPlainObject(json.error)) {
				const code = typeof json.error.code === "number" ? json.error.code : 0;
				const message = typeof json.error.message === "string" ? json.error.message : "no message";
				return { ok: false, kind: code === TASK_NOT_FOUND ? "not_found" : "refused", reason: `${message} (JSON-RPC ${code})` };
			}
			return { ok: true, result: json.result, bytes: new TextEncoder().encode(reply.text).length };
		} catch (error) {
			if (error instanceof SecretRefusal) return { ok: false, kind: "refused", reason: error.message };
			// The agent may have moved or changed its card: read it again next time.
			this.endpoints.clear();
			return { ok: false, kind: "transport", reason: error instanceof Error ? error.message : String(error) };
		}
	}

	private async call(group: GroupEntry, method: string, params: unknown, signal: AbortSignal): Promise<RemoteCall> {
		const reply = await this.rpc(group, method, params, signal);
		if (!reply.ok) return reply;
		const { result, bytes } = reply;
		if (isPlainObject(result) && (isPlainObject(result.task) || isPlainObject(result.message))) return { ok: true, result: result as unknown as WireSendResult, bytes };
		// GetTask answers the task itself.
		if (isPlainObject(result) && typeof result.id === "string") return { ok: true, result: { task: result as unknown as WireTask }, bytes };
		return { ok: false, kind: "refused", reason: "the agent's answer holds neither a task nor a message" };
	}

	send(group: GroupEntry, params: WireSendParams, signal: AbortSignal): Promise<RemoteCall> {
		return this.call(group, A2A_METHOD.send, params, signal);
	}

	getTask(group: GroupEntry, taskId: string, signal: AbortSignal): Promise<RemoteCall> {
		return this.call(group, A2A_METHOD.getTask, { id: taskId, historyLength: 0 }, signal);
	}

	cancelTask(group: GroupEntry, taskId: string, signal: AbortSignal): Promise<RemoteCall> {
		return this.call(group, A2A_METHOD.cancelTask, { id: taskId }, signal);
	}

	async findTask(group: GroupEntry, contextId: string, messageId: string, signal: AbortSignal): Promise<RemoteCall> {
		const listed = await this.rpc(group, A2A_METHOD.listTasks, { contextId, pageSize: 100, includeArtifacts: true }, signal);
		if (!listed.ok) return listed;
		const task = taskWithMessage(listed.result, messageId);
		return task ? { ok: true, result: { task }, bytes: listed.bytes } : { ok: false, kind: "not_found", reason: `no task of context ${contextId} holds message ${messageId}` };
	}
}
