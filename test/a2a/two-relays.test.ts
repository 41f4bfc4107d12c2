import { describe, expect, it } from "vitest";
import { readFrontmatter } from "../../src/core/frontmatter";
import { a2a } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";
import { until, useHarness } from "./harness";
import type { Served } from "./harness";

// Two relays that call each other (issue 16): vault 1 has a group pointing at vault 2's `a2a serve`,
// vault 2 one pointing back at vault 1's. Each vault runs `a2a serve` and `a2a route --watch` as
// child processes; agents are relay agents that pass a request on (or answer it) with the CLI.
// A legitimate round trip A(1) -> X(2) -> Y(1) completes; a chain that comes back to a group
// already on it is stopped by rule 6 at the first repeat, in whichever vault that happens, and
// the error travels back to A.

const h = useHarness();
const A = "10-backend-group";
const X = "x-group";
const Y = "y-group";

interface Relay {
	v: TempVault;
	served: Served;
	/** Stops this vault's router and server and waits for them to exit (before the vault is removed). */
	stop(): Promise<void>;
}

const addGroups = (lines: string) => (text: string) => text.replace("groups:\n", `groups:\n${lines}`);

/** Two vaults: 1 has A and Y, 2 has X; each serves its groups and routes. `remote1`/`remote2` add url: groups. */
async function twoRelays(remote1: (s2: Served) => string, remote2: (s1: Served) => string): Promise<[Relay, Relay]> {
	const v1 = await h.vault(addGroups(`  ${Y}:\n    description: the Y agent of vault 1\n`));
	const v2 = await h.vault(addGroups(`  ${X}:\n    description: the X agent of vault 2\n`));
	const s1 = await h.serve(v1.dir);
	const s2 = await h.serve(v2.dir);
	await v1.write("A2A/registry.yaml", addGroups(remote1(s2))(await v1.read("A2A/registry.yaml")));
	await v2.write("A2A/registry.yaml", addGroups(remote2(s1))(await v2.read("A2A/registry.yaml")));
	const relay = (v: TempVault, served: Served): Relay => {
		const router = h.router(v.dir);
		return {
			v,
			served,
			async stop() {
				router.child.kill("SIGTERM");
				await router.closed;
				await served.stop();
			},
		};
	};
	return [relay(v1, s1), relay(v2, s2)];
}

const url = (name: string, served: Served, group = name) => `  ${name}:\n    url: ${served.groupUrl(group)}\n`;

/**
 * An agent of `group`: it answers each request delivered to it, or (with `next`) passes it on to
 * `next` as a request that continues it (--parent) and answers with what comes back, an error
 * included. A request the CLI refuses to send is answered with the refusal.
 */
function relayAgent(v: TempVault, group: string, next: string | null): () => Promise<void> {
	const handled = new Set<string>();
	const working: Promise<void>[] = [];
	let stopped = false;
	const handle = async (id: string, fm: Record<string, unknown>) => {
		let status: "success" | "error" = "success";
		let answer = `answer from ${group}`;
		if (next !== null) {
			const sent = await a2a(v.dir, "send", "--from", group, "--to", next, "--type", "query", "--question", `asked by ${group}`, "--trace", String(fm.trace_id), "--parent", id, "--json");
			if (sent.code !== 0) {
				status = "error";
				answer = sent.stderr.join(" ");
			} else {
				const waited = await a2a(v.dir, "wait", "--message", String(sent.json[0].message_id), "--json", "--timeout", "40");
				const response = (waited.json[0]?.response ?? {}) as { status?: string; error_message?: string; payload?: { answer?: string } };
				if (response.status === "success") answer = `${group} passes on: ${response.payload?.answer ?? ""}`;
				else {
					status = "error";
					answer = `${group} got an error: ${response.error_message ?? String(waited.json[0]?.state)}`;
				}
			}
		}
		await a2a(v.dir, "reply", "--message", id, "--status", status, "--answer", answer);
	};
	const loop = (async () => {
		while (!stopped) {
			for (const path of await v.files(`A2A/groups/${group}/inbox`).catch(() => [])) {
				const fm = readFrontmatter(await v.read(path).catch(() => "")) ?? {};
				const id = fm.message_id;
				if (typeof id !== "string" || fm.kind !== "request" || fm.state !== "delivered" || handled.has(id)) continue;
				handled.add(id);
				working.push(handle(id, fm));
			}
			await new Promise((r) => setTimeout(r, 50));
		}
	})();
	return async () => {
		stopped = true;
		await loop;
		await Promise.allSettled(working);
	};
}

async function ask(v: TempVault, to: string): Promise<string> {
	const sent = await a2a(v.dir, "send", "--from", A, "--to", to, "--type", "query", "--question", "Who answers?", "--json");
	expect(sent.code, sent.stderr.join("\n")).toBe(0);
	return String(sent.json[0].message_id);
}

async function answerTo(v: TempVault, id: string): Promise<Record<string, unknown>> {
	const found = await until(
		"the answer in A's inbox",
		async () => {
			for (const path of await v.files(`A2A/groups/${A}/inbox`)) {
				// A writer's temporary file (a dot-file) comes and goes; a note may move on while it is read.
				if (path.split("/").pop()?.startsWith(".")) continue;
				const text = await v.read(path).catch(() => "");
				const fm = readFrontmatter(text) ?? {};
				if (fm.in_reply_to === id) return { ...fm, text };
			}
			return undefined;
		},
		45_000,
	);
	return found;
}

/** The requests of a trace a vault holds, as "source -> target". */
async function hopsNow(v: TempVault, trace: unknown): Promise<string[]> {
	const out: string[] = [];
	for (const path of await v.files("A2A")) {
		if (!path.endsWith(".md") || path.split("/").pop()?.startsWith(".")) continue;
		const fm = readFrontmatter(await v.read(path).catch(() => "")) ?? {};
		if (fm.kind === "request" && fm.trace_id === trace) out.push(`${String(fm.source_group)} -> ${String(fm.target_group)}`);
	}
	return out.sort();
}

/**
 * The requests of a trace, once they are where they end (the answer arrives before its request is
 * archived, and a note being moved is briefly not readable): looked at again until they are the
 * expected ones, at most 200 times, then the last look is what is compared.
 */
async function expectHops(v: TempVault, trace: unknown, expected: string[]): Promise<void> {
	let seen: string[] = [];
	for (let i = 0; i < 200; i++) {
		seen = await hopsNow(v, trace);
		if (JSON.stringify(seen) === JSON.stringify(expected)) break;
		await new Promise((r) => setTimeout(r, 25));
	}
	expect(seen).toEqual(expected);
}

describe("two relays that call each other", () => {
	it("a legitimate round trip A(1) -> X(2) -> Y(1) completes, and the answer reaches A", async () => {
		const [r1, r2] = await twoRelays(
			(s2) => url(X, s2),
			(s1) => url(Y, s1),
		);
		const stops = [relayAgent(r2.v, X, Y), relayAgent(r1.v, Y, null)];
		try {
			const id = await ask(r1.v, X);
			const answer = await answerTo(r1.v, id);
			expect(answer).toMatchObject({ status: "success", source_group: X });
			expect(answer.text).toContain(`${X} passes on: answer from ${Y}`);
			await expectHops(r1.v, answer.trace_id, [`${A} -> ${X}`, `a2a-gateway -> ${Y}`]);
			await expectHops(r2.v, answer.trace_id, [`a2a-gateway -> ${X}`, `${X} -> ${Y}`]);
		} finally {
			for (const stop of stops) await stop();
			await Promise.all([r1.stop(), r2.stop()]);
		}
	});

	it("A(1) -> X(2) -> Y(1) -> X: stopped by rule 6 in vault 1 at the first repeat, and the error reaches A", async () => {
		const [r1, r2] = await twoRelays(
			(s2) => url(X, s2),
			(s1) => url(Y, s1),
		);
		const stops = [relayAgent(r2.v, X, Y), relayAgent(r1.v, Y, X)];
		try {
			const id = await ask(r1.v, X);
			const answer = await answerTo(r1.v, id);
			expect(answer).toMatchObject({ status: "error", source_group: X, error_code: "REMOTE_FAILED" });
			expect(String(answer.error_message)).toContain(`${X} is already on this request's chain (${A} -> a2a-gateway -> ${X} -> a2a-gateway -> ${Y} -> ${X})`);
			// X was asked once: the chain never came back to it.
			await expectHops(r2.v, answer.trace_id, [`a2a-gateway -> ${X}`, `${X} -> ${Y}`]);
			await expectHops(r1.v, answer.trace_id, [`${A} -> ${X}`, `a2a-gateway -> ${Y}`]);
		} finally {
			for (const stop of stops) await stop();
			await Promise.all([r1.stop(), r2.stop()]);
		}
	});

	it("A(1) -> X(2) -> A: stopped by rule 6 in vault 2, and the error reaches A", async () => {
		const [r1, r2] = await twoRelays(
			(s2) => url(X, s2),
			(s1) => url(A, s1),
		);
		const stops = [relayAgent(r2.v, X, A)];
		try {
			const id = await ask(r1.v, X);
			const answer = await answerTo(r1.v, id);
			expect(answer).toMatchObject({ status: "error", source_group: X });
			expect(String(answer.error_message)).toContain(`${A} is already on this request's chain`);
			await expectHops(r2.v, answer.trace_id, [`a2a-gateway -> ${X}`]);
		} finally {
			for (const stop of stops) await stop();
			await Promise.all([r1.stop(), r2.stop()]);
		}
	});

	it("the same loop when vault 1 calls X by another name: stopped by rule 6 in vault 2, one hop later, and the error reaches A", async () => {
		const [r1, r2] = await twoRelays(
			(s2) => url("partner-x", s2, X),
			(s1) => url(Y, s1),
		);
		const stops = [relayAgent(r2.v, X, Y), relayAgent(r1.v, Y, "partner-x")];
		try {
			const id = await ask(r1.v, "partner-x");
			const answer = await answerTo(r1.v, id);
			expect(answer).toMatchObject({ status: "error", source_group: "partner-x" });
			expect(String(answer.error_message)).toContain(`${X} is already on this request's chain`);
			// Vault 2's gateway wrote the second call to X like any message, and its router dead-lettered it by rule 6.
			await expectHops(r2.v, answer.trace_id, [`a2a-gateway -> ${X}`, `a2a-gateway -> ${X}`, `${X} -> ${Y}`]);
			const deadLetters = await Promise.all((await r2.v.files("A2A/dead-letter")).map(async (path) => readFrontmatter(await r2.v.read(path)) ?? {}));
			expect(deadLetters.map((fm) => [fm.source_group, fm.target_group, fm.error_code, fm.trace_id])).toEqual([["a2a-gateway", X, "CYCLE_DETECTED", answer.trace_id]]);
			await expectHops(r1.v, answer.trace_id, [`${A} -> partner-x`, `a2a-gateway -> ${Y}`, `${Y} -> partner-x`]);
		} finally {
			for (const stop of stops) await stop();
			await Promise.all([r1.stop(), r2.stop()]);
		}
	});
});
