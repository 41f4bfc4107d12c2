import { randomUUID } from "node:crypto";
import * as http from "node:http";
import { A2A_VERSION_HEADER, AgentCard, Extensions, HTTP_EXTENSION_HEADER, Role, TaskState } from "@a2a-js/sdk";
import type { Message, Part } from "@a2a-js/sdk";
import { plainAgentCard } from "./agent-card";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, ServerCallContext, UnauthenticatedUser, validateVersion } from "@a2a-js/sdk/server";
import type { AgentExecutor, ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";

// Remote A2A agents for tests and the bench, built with @a2a-js/sdk's server pieces on node:http
// (127.0.0.1, a free port): one server, one agent per path /agents/<kind>/. Kinds: `echo` answers
// "echo: <text>" (COMPLETED with an artifact); `slow` stays WORKING until the test releases it
// (or the server closes); `failing` ends FAILED with a reason, `hostile` with one full of terminal escapes; `input` asks for input
// (INPUT_REQUIRED); `big` answers with more than 1 MB of text; `files` answers with file bytes (a
// CSV named with a path that climbs out, and a binary file); `held` does the work like `echo` but
// holds the HTTP answer to SendMessage until the test releases it (the caller never learns the
// task); `endless` answers SendMessage with a body that never ends (until the caller hangs up or 64
// MB went out); `elsewhere` is an echo agent whose card names its endpoint on a second port of the
// same machine (another address, as a card may claim). Every execution and every JSON-RPC call is
// counted, with the port it came to and whether it carried a token, so tests can tell how often a
// request was sent and where. `close` ends held tasks and both listeners.

export const AGENT_KINDS = ["echo", "slow", "failing", "input", "big", "files", "held", "endless", "elsewhere", "hostile"] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

export const FAILING_REASON = "the disk of the remote agent is full";
/** What `hostile` fails with: terminal escapes (OSC 52 sets the clipboard, CSI recolours), a CR and newlines that forge output lines. */
export const HOSTILE_REASON = "disk full\x1b]52;c;cm0gLXJmIH4=\x07\x1b[31m\rdelivered 00000000 fake\nsecond line\u202e";
export const INPUT_QUESTION = "Which database should the schema target?";
/** The text file `files` sends, under a name that tries to climb out of any folder. */
export const SENT_FILE = { name: "../../etc/report.csv", text: "id,name\n1,Ada\n" };
/** The binary file `files` sends as photo.jpg (a JPEG's first bytes, not UTF-8). */
export const SENT_PHOTO = Uint8Array.from([0xff, 0xd8, 0x00, 0x10]);
/** What `big` answers: 1.1 MB of text. */
export const BIG_ANSWER_BYTES = 1_100_000;

const textPart = (text: string): Part => ({ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" });
const textOf = (m: Message): string => m.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("\n\n");
const agentMessage = (taskId: string, contextId: string, text: string): Message => ({ messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] });
const stamp = () => new Date().toISOString();

export interface Execution {
	kind: AgentKind;
	messageId: string;
	contextId: string;
	text: string;
	metadata: Record<string, unknown> | undefined;
	authorization: string | undefined;
	/** The agent's own time for the task (execute() start to its final event), ms; set when it ends. */
	ms?: number;
}

export interface RemoteAgentServer {
	/** The base URL of an agent (ends with `/`). */
	url(kind: AgentKind): string;
	executions: Execution[];
	/** JSON-RPC calls received, by method, in order: `elsewhere` when they came to the second port, `token` when they carried one, the W3C `traceparent` header they carried. */
	calls: { kind: AgentKind; method: string; elsewhere: boolean; token: boolean; traceparent?: string }[];
	/** Bytes `endless` wrote before its caller hung up. */
	endlessBytes(): number;
	/** Lets every held `slow` task complete and every held `held` answer go (now and from now on). */
	releaseSlow(): void;
	close(): Promise<void>;
}

class Agent implements AgentExecutor {
	/** Held `slow` tasks, by task id: cancelling one ends its execution. */
	private readonly cancels = new Map<string, () => void>();

	constructor(
		private readonly kind: AgentKind,
		private readonly server: { executions: Execution[]; held: Set<() => void>; released: () => boolean },
	) {}

	async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
		const { taskId, contextId, userMessage } = ctx;
		const text = textOf(userMessage);
		const auth = ctx.context.user?.userName;
		const started = performance.now();
		const execution: Execution = { kind: this.kind, messageId: userMessage.messageId, contextId, text, metadata: userMessage.metadata, authorization: auth === "" ? undefined : auth };
		this.server.executions.push(execution);
		bus.publish(AgentEvent.task({ id: taskId, contextId, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: stamp() }, artifacts: [], history: [userMessage], metadata: undefined }));
		const finish = (state: TaskState, message: string) => {
			execution.ms = performance.now() - started;
			bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state, message: agentMessage(taskId, contextId, message), timestamp: stamp() }, metadata: undefined }));
		};
		if (this.kind === "slow" && !this.server.released()) {
			// Held until the test releases it, or cancelled (cancelTask has then published CANCELED).
			const cancelled = await new Promise<boolean>((resolve) => {
				const wake = () => resolve(false);
				this.server.held.add(wake);
				this.cancels.set(taskId, () => {
					this.server.held.delete(wake);
					resolve(true);
				});
			});
			this.cancels.delete(taskId);
			if (cancelled) return;
		}
		if (this.kind === "failing") return finish(TaskState.TASK_STATE_FAILED, FAILING_REASON);
		if (this.kind === "hostile") return finish(TaskState.TASK_STATE_FAILED, HOSTILE_REASON);
		if (this.kind === "input") return finish(TaskState.TASK_STATE_INPUT_REQUIRED, INPUT_QUESTION);
		const files: Part[] =
			this.kind === "files"
				? [
						{ content: { $case: "raw", value: Buffer.from(SENT_FILE.text) }, metadata: undefined, filename: SENT_FILE.name, mediaType: "text/csv" },
						{ content: { $case: "raw", value: Buffer.from(SENT_PHOTO) }, metadata: undefined, filename: "photo.jpg", mediaType: "image/jpeg" },
					]
				: [];
		bus.publish(
			AgentEvent.artifactUpdate({
				taskId,
				contextId,
				artifact: { artifactId: randomUUID(), name: "answer", description: "", parts: [...files, textPart(this.kind === "big" ? "x".repeat(BIG_ANSWER_BYTES) : `${this.kind === "slow" ? "slow " : ""}echo: ${text}`)], metadata: undefined, extensions: [] },
				append: false,
				lastChunk: true,
				metadata: undefined,
			}),
		);
		finish(TaskState.TASK_STATE_COMPLETED, "done");
	}

	cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
		bus.publish(AgentEvent.statusUpdate({ taskId, contextId: "", status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: stamp() }, metadata: undefined }));
		this.cancels.get(taskId)?.();
		return Promise.resolve();
	}
}


function readBody(req: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		req.on("error", reject);
	});
}

/** A JSON-RPC answer that never ends: text in 64 KB chunks until the caller hangs up or 64 MB went out. */
function endless(res: http.ServerResponse, wrote: (bytes: number) => void): void {
	const chunk = "x".repeat(64 * 1024);
	let sent = 0;
	res.writeHead(200, { "Content-Type": "application/json" });
	res.write('{"jsonrpc":"2.0","id":1,"result":{"message":{"parts":[{"text":"');
	const more = () => {
		while (!res.destroyed && sent < 64 * 1024 * 1024) {
			sent += chunk.length;
			wrote(chunk.length);
			if (!res.write(chunk)) return void res.once("drain", more);
		}
		res.end();
	};
	res.on("close", () => res.destroy());
	more();
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { "Content-Type": "application/json" });
	res.end(JSON.stringify(body));
}

/** Starts the agents on 127.0.0.1; with `token`, every call must carry `Authorization: Bearer <token>`. */
export async function startRemoteAgents(options: { token?: string } = {}): Promise<RemoteAgentServer> {
	const server = http.createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const port = (server.address() as { port: number }).port;
	const base = `http://127.0.0.1:${port}`;
	const executions: Execution[] = [];
	const calls: RemoteAgentServer["calls"] = [];
	const decoy = http.createServer();
	await new Promise<void>((resolve) => decoy.listen(0, "127.0.0.1", resolve));
	const elsewhere = `http://127.0.0.1:${(decoy.address() as { port: number }).port}`;
	let endlessBytes = 0;
	const held = new Set<() => void>();
	let released = false;
	const shared = { executions, held, released: () => released };
	const agents = new Map<string, { kind: AgentKind; card: AgentCard; transport: JsonRpcTransportHandler }>();
	for (const kind of AGENT_KINDS) {
		const mount = `/agents/${kind}/`;
		const agentCard = plainAgentCard(kind, `a ${kind} test agent`, `${kind === "elsewhere" ? elsewhere : base}${mount}`);
		agents.set(mount, { kind, card: agentCard, transport: new JsonRpcTransportHandler(new DefaultRequestHandler(agentCard, new InMemoryTaskStore(), new Agent(kind, shared))) });
	}
	const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
		void (async () => {
			const path = (req.url ?? "/").split("?")[0];
			const mount = path.endsWith("/.well-known/agent-card.json") ? path.slice(0, -".well-known/agent-card.json".length) : path;
			const agent = agents.get(mount);
			if (!agent) return sendJson(res, 404, { error: "not found" });
			if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) return sendJson(res, 401, { error: "unauthorized" });
			if (req.method === "GET") return sendJson(res, 200, AgentCard.toJSON(agent.card));
			const body = JSON.parse(await readBody(req)) as { id?: unknown; method?: string };
			calls.push({ kind: agent.kind, method: body.method ?? "?", elsewhere: req.socket.localPort !== port, token: req.headers.authorization !== undefined, traceparent: req.headers.traceparent as string | undefined });
			if (agent.kind === "endless" && body.method === "SendMessage") return endless(res, (n) => (endlessBytes += n));
			const user = options.token !== undefined ? { isAuthenticated: true, userName: "bearer" } : new UnauthenticatedUser();
			const context = new ServerCallContext({ user, requestedVersion: (req.headers[A2A_VERSION_HEADER.toLowerCase()] as string | undefined) || undefined, requestedExtensions: Extensions.parseServiceParameter(req.headers[HTTP_EXTENSION_HEADER.toLowerCase()] as string | undefined) });
			try {
				validateVersion(context.requestedVersion, agent.card, "JSONRPC");
			} catch (error) {
				return sendJson(res, 200, { jsonrpc: "2.0", id: body.id ?? null, error: JsonRpcTransportHandler.mapToJSONRPCError(error) });
			}
			const result = await agent.transport.handle(body as Record<string, unknown>, context);
			if (agent.kind === "held" && body.method === "SendMessage" && !released) await new Promise<void>((resolve) => held.add(resolve));
			if (Symbol.asyncIterator in result) return sendJson(res, 200, { jsonrpc: "2.0", id: body.id ?? null, error: { code: -32004, message: "streaming is not served here" } });
			sendJson(res, 200, result);
		})().catch((error: unknown) => {
			if (!res.headersSent) sendJson(res, 500, { error: String(error) });
			else res.end();
		});
	};
	server.on("request", onRequest);
	decoy.on("request", onRequest);
	const releaseSlow = () => {
		released = true;
		for (const resolve of held) resolve();
		held.clear();
	};
	return {
		url: (kind) => `${base}/agents/${kind}/`,
		executions,
		calls,
		endlessBytes: () => endlessBytes,
		releaseSlow,
		close: async () => {
			releaseSlow();
			for (const listener of [server, decoy]) {
				listener.closeAllConnections();
				await new Promise<void>((resolve, reject) => listener.close((err) => (err ? reject(err) : resolve())));
			}
		},
	};
}
