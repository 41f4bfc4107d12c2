import type { ChildProcess } from "node:child_process";
import { Role } from "@a2a-js/sdk";
import type { Message, Part, Task } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import type { Client } from "@a2a-js/sdk/client";
import { afterEach } from "vitest";
import { readFrontmatter } from "../../src/core/frontmatter";
import { collectLines, useCliBundle, watching } from "../helpers/cli-process";
import type { CliBundle, Watcher } from "../helpers/cli-process";
import { a2a, makeTempVault } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// `a2a serve` as users run it: the CLI bundle as a child process on 127.0.0.1 and a free port,
// `a2a route --watch` beside it, agents answering with `a2a reply`; clients are the official
// @a2a-js/sdk client. Every process and vault a test makes is stopped and removed after it.

export const ROUTING_EXTENSION = "urn:a2a-relay:ext:routing:v1";
export const A_GROUP = "10-backend-group";
export const B_GROUP = "20-frontend-group";
export const GATEWAY = "a2a-gateway";

export interface Served {
	child: ChildProcess;
	/** The server's base URL (ending with `/`). */
	url: string;
	groupUrl(group: string): string;
	stdout: string[];
	stderr: string[];
	/** Sends SIGTERM and resolves with the exit code. */
	stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface Harness {
	cli: CliBundle;
	/** A vault set up by `a2a init` (its registry edited by `registry` when given). */
	vault(registry?: (text: string) => string): Promise<TempVault>;
	serve(dir: string, extra?: string[], env?: Record<string, string>): Promise<Served>;
	router(dir: string): Watcher;
	/** `a2a reply` as a child process; resolves with its exit code. */
	reply(dir: string, messageId: string, answer: string, status?: "success" | "error"): Promise<number>;
	/** Runs the CLI bundle to its end. */
	run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

export function exited(child: ChildProcess): Promise<number | null> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
	return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

export function useHarness(): Harness {
	const vaults: TempVault[] = [];
	// Registered before the bundle's hook, so that it runs after it (vitest runs after-hooks in
	// reverse): the processes are stopped first, then their vaults removed.
	afterEach(async () => {
		for (const v of vaults.splice(0)) await v.cleanup();
	});
	const cli = useCliBundle();
	const run = (args: string[]) =>
		new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
			const child = cli.spawn(args);
			let stdout = "";
			let stderr = "";
			child.stdout?.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
			child.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
			child.on("close", (code) => resolve({ code, stdout, stderr }));
		});
	return {
		cli,
		run,
		async vault(edit) {
			const v = await makeTempVault("a2a-serve-");
			vaults.push(v);
			const init = await a2a(v.dir, "init");
			if (init.code !== 0) throw new Error(init.stderr.join("\n"));
			if (edit) await v.write("A2A/registry.yaml", edit(await v.read("A2A/registry.yaml")));
			return v;
		},
		async serve(dir, extra = [], env = {}) {
			const child = cli.spawn(["serve", "--vault", dir, "--port", "0", "--json", "--interval", "500", ...extra], { env });
			const stdout: string[] = [];
			const stderr: string[] = [];
			collectLines(child.stdout, stdout);
			collectLines(child.stderr, stderr);
			const url = await new Promise<string>((resolve, reject) => {
				const timer = setInterval(() => {
					const line = stdout.find((l) => l.startsWith("{"));
					if (line) {
						clearInterval(timer);
						resolve((JSON.parse(line) as { url: string }).url);
					} else if (child.exitCode !== null) {
						clearInterval(timer);
						reject(new Error(`a2a serve exited with ${child.exitCode}: ${stderr.join("\n")}`));
					}
				}, 20);
			});
			return {
				child,
				url,
				groupUrl: (group) => `${url}groups/${group}/`,
				stdout,
				stderr,
				stop(signal = "SIGTERM") {
					const done = exited(child);
					child.kill(signal);
					return done;
				},
			};
		},
		router(dir) {
			return watching(cli.spawn(["route", "--watch", "--json", "--interval", "500", "--vault", dir]));
		},
		async reply(dir, messageId, answer, status = "success") {
			return (await run(["reply", "--vault", dir, "--message", messageId, "--status", status, "--answer", answer])).code ?? -1;
		},
	};
}

/** The official client for one served group (the URL ends with `/`: the card is read below it). */
export function clientFor(url: string, token?: string): Promise<Client> {
	if (token === undefined) return new ClientFactory().createFromUrl(url);
	const fetchImpl: typeof fetch = (input, init) => {
		const headers = new Headers(init?.headers);
		headers.set("Authorization", `Bearer ${token}`);
		return fetch(input, { ...init, headers });
	};
	const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })], cardResolver: new DefaultAgentCardResolver({ fetchImpl }) });
	return new ClientFactory(options).createFromUrl(url);
}

export const text = (value: string): Part => ({ content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "text/plain" });

export function userMessage(messageId: string, body: string | Part[], extra: Partial<Message> = {}): Message {
	return { messageId, contextId: "", taskId: "", role: Role.ROLE_USER, parts: typeof body === "string" ? [text(body)] : body, metadata: undefined, extensions: [], referenceTaskIds: [], ...extra };
}

export const send = (client: Client, message: Message, returnImmediately = false) =>
	client.sendMessage({ tenant: "", message, configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately }, metadata: undefined }) as Promise<Task>;

export const getTask = (client: Client, id: string) => client.getTask({ tenant: "", id, historyLength: undefined });

export const textOfParts = (parts: Part[] | undefined): string => (parts ?? []).map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");

/** Waits (checking every 25 ms) until `probe` gives a value; throws after `limitMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, limitMs = 20000): Promise<T> {
	const end = Date.now() + limitMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined && value !== null && value !== false) return value;
		if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 25));
	}
}

/** Every note of the vault whose frontmatter has this message_id, with where it is. */
export async function notesWithId(v: TempVault, messageId: string): Promise<{ path: string; fm: Record<string, unknown> }[]> {
	const out: { path: string; fm: Record<string, unknown> }[] = [];
	for (const file of await v.files("A2A")) {
		if (!file.endsWith(".md")) continue;
		const fm = readFrontmatter(await v.read(file).catch(() => "")) ?? {};
		if (fm.message_id === messageId) out.push({ path: file, fm });
	}
	return out;
}

