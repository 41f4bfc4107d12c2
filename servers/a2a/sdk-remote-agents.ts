import { ListTasksResponse, Message, SendMessageRequest, Task, TaskState } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } from "@a2a-js/sdk/client";
import type { Client } from "@a2a-js/sdk/client";
import { TaskNotFoundError, isJsonRpcError } from "@a2a-js/sdk/errors";
import { readRoutingMetadata } from "../../src/core/a2a-routing";
import { taskWithMessage } from "../../src/core/a2a-wire";
import type { WireMessage, WireSendParams, WireSendResult, WireTask } from "../../src/core/a2a-wire";
import type { GroupEntry } from "../../src/core/registry";
import { MAX_REMOTE_RESPONSE_BYTES } from "../../src/core/remote-answer";
import { tokenRefusal } from "../../src/core/remote-request";
import type { RemoteAgents, RemoteCall } from "../../src/router/remote-agents";
import { checkSecretOrigin, readSecret } from "../../node/secrets";

// The CLI's way to call remote A2A agents (src/router/remote-agents.ts): the official @a2a-js/sdk
// client, one per group and URL, with the secret the group's `token_secret:` names (node/secrets.ts:
// the user's private configuration folder or A2A_SECRET_<ID>, never the vault, never a path) sent as
// `Authorization: Bearer` for the card and every call, only to the registry url's origin and never
// after a redirect. An answer is read up to the relay's 1 MB limit and no further. Only http(s) URLs
// are called (the registry refuses others too). A secret's value never appears in an error.

/** Node's timers, for the router's forwarder. */
export const NODE_TIMERS = { set: (callback: () => void, ms: number): unknown => setTimeout(callback, ms), clear: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout) };

const HTTP_STATUS = /HTTP error for \S+! Status: (\d{3})/;
/** How long an agent card may take to arrive, by default. */
const CARD_TIMEOUT_MS = 10_000;
const CARD_STATUS = /Failed to fetch Agent Card from .*: (\d{3})$/;

/** The base URL the SDK reads the card below: it must end with `/`. */
export function agentBaseUrl(url: string): string {
	return url.endsWith("/") ? url : `${url}/`;
}

/** A call the relay itself refuses to make (the agent's card names another address for a group with a token). */
class RemoteRefusal extends Error {}

/** The answer grew past the relay's limit: reading stopped there. */
class TooLarge extends Error {
	constructor(readonly bytes: number) {
		super(`the answer reached ${bytes} bytes; the relay stopped reading it`);
	}
}

/** The response with a body that errors with TooLarge once more than `limit` bytes came (or were announced). */
function capped(response: Response, limit: number): Response {
	const announced = Number(response.headers.get("content-length") ?? "");
	if (announced > limit) {
		void response.body?.cancel();
		throw new TooLarge(announced);
	}
	const body = response.body;
	if (!body) return response;
	const reader = body.getReader();
	let seen = 0;
	const stream = new ReadableStream<Uint8Array>({
		async pull(controller) {
			const { done, value } = await reader.read();
			if (done) return controller.close();
			seen += value.byteLength;
			if (seen > limit) {
				await reader.cancel();
				return controller.error(new TooLarge(seen));
			}
			controller.enqueue(value);
		},
		cancel: (reason) => reader.cancel(reason),
	});
	return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function classify(error: unknown): RemoteCall {
	const reason = error instanceof Error ? error.message : String(error);
	if (error instanceof TooLarge) return { ok: false, kind: "too_large", bytes: error.bytes, reason };
	if (error instanceof RemoteRefusal) return { ok: false, kind: "refused", reason };
	if (error instanceof TaskNotFoundError) return { ok: false, kind: "not_found", reason };
	if (isJsonRpcError(error)) return { ok: false, kind: "refused", reason };
	const status = HTTP_STATUS.exec(reason)?.[1] ?? CARD_STATUS.exec(reason)?.[1];
	if (status !== undefined) {
		const code = Number(status);
		// 408 and 429 say "later", like a server error.
		const later = code >= 500 || code === 408 || code === 429;
		return { ok: false, kind: later ? "transport" : "refused", reason: `HTTP ${code}${code === 401 || code === 403 ? " (the token of the group's token_secret was not accepted)" : ""}` };
	}
	const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
	return { ok: false, kind: "transport", reason: `${reason}${cause}` };
}

/** The W3C trace context headers of a forwarded request: its span's, as its routing metadata carries it. */
function traceHeaders(params: WireSendParams): Record<string, string> {
	const routing = readRoutingMetadata(params.message.metadata);
	if (!routing.ok || routing.value.traceparent === undefined) return {};
	return { traceparent: routing.value.traceparent, ...(routing.value.tracestate !== undefined ? { tracestate: routing.value.tracestate } : {}) };
}

export class SdkRemoteAgents implements RemoteAgents {
	private readonly clients = new Map<string, Promise<Client>>();

	constructor(
		private readonly cardTimeoutMs = CARD_TIMEOUT_MS,
		private readonly secret: (id: string, url: string) => string = (id, url) => {
			const token = readSecret(id);
			checkSecretOrigin(id, new URL(url).origin);
			return token;
		},
	) {}

	private token(group: GroupEntry): string | null {
		if (group.tokenSecret === undefined) return null;
		try {
			return this.secret(group.tokenSecret, group.url ?? "");
		} catch (error) {
			throw new RemoteRefusal(`${group.id}: ${error instanceof Error ? error.message : String(error)}`);
		}
	}

	private async makeClient(group: GroupEntry, url: string): Promise<Client> {
		const token = this.token(group);
		// Every call's answer is read within the relay's limit, and the token goes only to the registry url's address.
		const guarded =
			(timeoutMs?: number): typeof fetch =>
			async (input, init) => {
				const target = input instanceof Request ? input.url : String(input);
				const headers = new Headers(init?.headers);
				if (token !== null) {
					const refusal = tokenRefusal(group.id, url, target);
					if (refusal !== null) throw new RemoteRefusal(refusal);
					headers.set("Authorization", `Bearer ${token}`);
				}
				const signal = init?.signal ?? (timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs));
				// A call with the token follows no redirect (fetch would carry the header along): the token goes to the registry url's origin and nowhere else.
				const redirect = token === null ? init?.redirect : "manual";
				const response = await fetch(input, { ...init, headers, signal, redirect });
				if (token !== null && (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400))) {
					void response.body?.cancel();
					throw new RemoteRefusal(`${group.id} answered with a redirect (HTTP ${response.status}); the group's token is never sent after a redirect (set url: to the agent's own address)`);
				}
				return capped(response, MAX_REMOTE_RESPONSE_BYTES);
			};
		// The card is read once per client, within a bound: an agent that never answers it must not keep a one-off `a2a route` alive.
		const cardResolver = new DefaultAgentCardResolver({ fetchImpl: guarded(this.cardTimeoutMs) });
		const fetchImpl = guarded();
		const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })], cardResolver });
		return new ClientFactory(options).createFromUrl(agentBaseUrl(url));
	}

	private client(group: GroupEntry): Promise<Client> {
		const url = group.url ?? "";
		if (!/^https?:\/\//i.test(url)) return Promise.reject(new Error(`${group.id}: only http:// and https:// agents are called, not ${url}`));
		const key = `${group.id}\n${url}\n${group.tokenSecret ?? ""}`;
		let client = this.clients.get(key);
		if (!client) {
			client = this.makeClient(group, url);
			this.clients.set(key, client);
		}
		return client;
	}

	private async attempt(group: GroupEntry, call: (client: Client) => Promise<WireSendResult>): Promise<RemoteCall> {
		try {
			const result = await call(await this.client(group));
			return { ok: true, result, bytes: new TextEncoder().encode(JSON.stringify(result)).length };
		} catch (error) {
			const outcome = classify(error);
			// The agent may have moved or changed its card: read it again next time.
			if (!outcome.ok && outcome.kind !== "not_found") this.clients.delete(`${group.id}\n${group.url ?? ""}\n${group.tokenSecret ?? ""}`);
			return outcome;
		}
	}

	send(group: GroupEntry, params: WireSendParams, signal: AbortSignal): Promise<RemoteCall> {
		return this.attempt(group, async (client) => {
			const request = SendMessageRequest.fromJSON({ tenant: "", ...params } as never);
			const result = await client.sendMessage(request, { signal, serviceParameters: traceHeaders(params) });
			return "messageId" in result ? { message: Message.toJSON(result) as WireMessage } : { task: Task.toJSON(result) as WireTask };
		});
	}

	async findTask(group: GroupEntry, contextId: string, messageId: string, signal: AbortSignal): Promise<RemoteCall> {
		const listed = await this.attempt(group, async (client) => {
			const page = await client.listTasks({ tenant: "", contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 100, pageToken: "", historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: true }, { signal });
			// An empty id stands for "none of them" (the call itself went well).
			return { task: taskWithMessage(ListTasksResponse.toJSON(page), messageId) ?? { id: "" } };
		});
		if (listed.ok && "task" in listed.result && listed.result.task.id === "") return { ok: false, kind: "not_found", reason: `no task of context ${contextId} holds message ${messageId}` };
		return listed;
	}

	cancelTask(group: GroupEntry, taskId: string, signal: AbortSignal): Promise<RemoteCall> {
		return this.attempt(group, async (client) => ({ task: Task.toJSON(await client.cancelTask({ tenant: "", id: taskId, metadata: undefined }, { signal })) as WireTask }));
	}

	getTask(group: GroupEntry, taskId: string, signal: AbortSignal): Promise<RemoteCall> {
		return this.attempt(group, async (client) => ({ task: Task.toJSON(await client.getTask({ tenant: "", id: taskId, historyLength: 0 }, { signal })) as WireTask }));
	}
}
