import { promises as fs } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { useCliBundle } from "../helpers/cli-process";
import type { Watcher } from "../helpers/cli-process";
import { startOtlpReceiver } from "../helpers/otlp-receiver";
import type { OtlpReceiver, ReceivedSpan } from "../helpers/otlp-receiver";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// What a team's OpenTelemetry backend receives from `a2a route --watch` (protocol section 9): one
// span per message in the conversation's trace, parents by parent_id and in_reply_to, outcomes,
// retries and a late answer as events, a refusal as an error; the same ids from two routers.

const cli = useCliBundle();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

const ONE_RETRY = REGISTRY.replace("retry_attempts: 3", "retry_attempts: 1");
const TRACE = "5d6e7f80-1a2b-4c3d-8e9f-0a1b2c3d4e5f";
const TRACE_HEX = TRACE.replace(/-/g, "");

async function vaultWith(registry: string): Promise<TempVault> {
	const v = await makeTempVault("a2a-otel-");
	cleanups.push(() => v.cleanup());
	expect((await a2a(v.dir, "init")).code).toBe(0);
	await v.write("A2A/registry.yaml", registry);
	return v;
}

async function receiver(): Promise<OtlpReceiver> {
	const r = await startOtlpReceiver();
	cleanups.push(() => r.close());
	return r;
}

const otelEnv = (r: OtlpReceiver, device: string) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: r.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_SERVICE_NAME: "relay-test", A2A_DEVICE: device });

async function send(v: TempVault, from: string, to: string, extra: string[] = []): Promise<string> {
	const run = await a2a(v.dir, "send", "--from", from, "--to", to, "--type", "query", "--question", "secret question text", "--trace", TRACE, "--json", ...extra);
	expect(run.code, run.stderr.join("\n")).toBe(0);
	return run.json[0].message_id as string;
}

async function reply(v: TempVault, id: string, answer = "secret answer text"): Promise<void> {
	const run = await a2a(v.dir, "reply", "--message", id, "--status", "success", "--answer", answer);
	expect(run.code, run.stderr.join("\n")).toBe(0);
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
	const end = Date.now() + ms;
	while (!(await check())) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 25));
	}
}

const outcomeOf = (w: Watcher, id: string, outcome: string) => w.lines.some((l) => l.includes(`"outcome":"${outcome}"`) && l.includes(id));
const spanOf = (spans: ReceivedSpan[], id: string, outcome?: string) => spans.find((s) => s.attributes["messaging.message.id"] === id && (outcome === undefined || s.attributes["a2a_relay.outcome"] === outcome));

async function stop(w: Watcher): Promise<void> {
	w.child.kill("SIGINT");
	await w.closed;
}

describe("OpenTelemetry spans of a conversation routed by a2a route --watch", () => {
	it("exports the span tree of a delegation, a refused cycle, a timeout after retries and a late answer", async () => {
		const v = await vaultWith(ONE_RETRY);
		const r = await receiver();
		const w = cli.startWatcher(v.dir, { env: otelEnv(r, "router-a") });
		cleanups.push(() => stop(w));

		const top = await send(v, "10-backend-group", "20-frontend-group");
		await until("the top request delivered", () => outcomeOf(w, top, "delivered"));
		const delegated = await send(v, "20-frontend-group", "30-devops-group", ["--parent", top]);
		await until("the delegation delivered", () => outcomeOf(w, delegated, "delivered"));
		// devops asks backend, which started the chain: a cycle (written by hand: a2a send refuses it).
		const cycle = "c7c7c7c7-0000-4000-8000-000000000001";
		await v.write(`${BOX("30-devops-group", "outbox")}/cycle.md`, requestNote({ message_id: cycle, trace_id: TRACE, hop_count: 2, source_group: "30-devops-group", target_group: "10-backend-group", parent_id: delegated }));
		await until("the cycle refused", () => outcomeOf(w, cycle, "rejected"));
		const unanswered = await send(v, "20-frontend-group", "40-security-group", ["--parent", top, "--timeout", "1"]);
		await until("the request to security timed out after its retry", () => outcomeOf(w, unanswered, "timed_out"));
		await reply(v, unanswered, "too late");
		await until("the late answer delivered", () => w.lines.some((l) => l.includes('"outcome":"late"')));
		await reply(v, delegated);
		await until("the delegation answered", () => w.lines.filter((l) => l.includes('"outcome":"answered"')).length >= 1);
		await reply(v, top);
		await until("the top request answered", () => w.lines.filter((l) => l.includes('"outcome":"answered"')).length >= 2);
		await stop(w);
		await until("spans received", () => spanOf(r.spans, top, "answered") !== undefined, 10_000);

		const spans = r.spans;
		expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([TRACE_HEX]));
		expect(spans.every((s) => s.serviceName === "relay-test" && s.attributes["messaging.system"] === "a2a-relay")).toBe(true);
		const topSpan = spanOf(spans, top, "answered") as ReceivedSpan;
		const delegatedSpan = spanOf(spans, delegated, "answered") as ReceivedSpan;
		const cycleSpan = spanOf(spans, cycle, "rejected") as ReceivedSpan;
		const timedOut = spanOf(spans, unanswered, "timed_out") as ReceivedSpan;
		expect(topSpan.parentSpanId ?? "").toBe("");
		expect(topSpan.attributes["messaging.destination.name"]).toBe("20-frontend-group");
		expect(topSpan.attributes["a2a_relay.hop_count"]).toBe(0);
		expect(delegatedSpan.parentSpanId).toBe(topSpan.spanId);
		expect(cycleSpan.parentSpanId).toBe(delegatedSpan.spanId);
		expect(cycleSpan.status.code).toBe(2);
		expect(cycleSpan.attributes["error.type"]).toBe("CYCLE_DETECTED");
		expect(timedOut.parentSpanId).toBe(topSpan.spanId);
		expect(timedOut.status.code).toBe(2);
		expect(timedOut.attributes["error.type"]).toBe("TIMEOUT");
		expect(timedOut.events.map((e) => e.name)).toContain("retry");
		// Each response is the child of the request it answers; the late one says so.
		const late = spans.find((s) => s.attributes["a2a_relay.outcome"] === "late") as ReceivedSpan;
		expect(late.parentSpanId).toBe(timedOut.spanId);
		expect(late.events.map((e) => e.name)).toContain("late answer");
		const answers = spans.filter((s) => s.attributes["a2a_relay.kind"] === "response" && s.attributes["a2a_relay.outcome"] === "delivered");
		expect(answers.map((s) => s.parentSpanId).sort()).toEqual([topSpan.spanId, delegatedSpan.spanId].sort());
		// One span per message, and no text an agent wrote.
		expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
		expect(JSON.stringify(spans)).not.toMatch(/secret (question|answer) text|too late/);
		// What an agent reads of a message names the relay's span of it, to continue the trace from.
		const read = await a2a(v.dir, "read", delegated, "--json");
		expect(read.json[0].relay_traceparent).toBe(`00-${TRACE_HEX}-${delegatedSpan.spanId}-01`);
	}, 60_000);

	it("names the same hops alike from two routers of one vault's copies", async () => {
		const a = await vaultWith(REGISTRY);
		const id = await send(a, "10-backend-group", "20-frontend-group");
		expect((await a2a(a.dir, "route")).code).toBe(0);
		await reply(a, id);
		const b = await makeTempVault("a2a-otel-copy-");
		cleanups.push(() => b.cleanup());
		await fs.cp(a.dir, b.dir, { recursive: true });
		const seen: ReceivedSpan[][] = [];
		for (const [v, device] of [[a, "laptop"], [b, "desktop"]] as const) {
			const r = await receiver();
			const run = cli.spawn(["route", "--vault", v.dir], { env: otelEnv(r, device) });
			await new Promise((resolve) => run.on("close", resolve));
			seen.push(r.spans);
		}
		const ids = (spans: ReceivedSpan[]) => spans.map((s) => `${s.attributes["messaging.message.id"]} ${s.traceId} ${s.spanId} ${s.parentSpanId ?? ""}`).sort();
		expect(seen[0]).toHaveLength(2);
		expect(ids(seen[0])).toEqual(ids(seen[1]));
	}, 60_000);

	it("sends nothing and loads nothing when no OTLP endpoint is named", async () => {
		const v = await vaultWith(REGISTRY);
		const r = await receiver();
		const id = await send(v, "10-backend-group", "20-frontend-group");
		await a2a(v.dir, "route");
		await reply(v, id);
		const run = cli.spawn(["route", "--vault", v.dir], { env: { OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: r.endpoint } });
		const code = await new Promise((resolve) => run.on("close", resolve));
		expect(code).toBe(0);
		expect(r.requests).toHaveLength(0);
	}, 30_000);

	it("goes on routing when the collector cannot be reached, and says so once", async () => {
		const v = await vaultWith(REGISTRY);
		const r = await receiver();
		const dead = r.endpoint;
		await r.close();
		const ids = [await send(v, "10-backend-group", "20-frontend-group"), await send(v, "10-backend-group", "30-devops-group")];
		await a2a(v.dir, "route");
		for (const id of ids) await reply(v, id);
		const run = cli.spawn(["route", "--vault", v.dir], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: dead, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" } });
		const errors: string[] = [];
		run.stderr?.on("data", (c: Buffer) => errors.push(c.toString()));
		const code = await new Promise((resolve) => run.on("close", resolve));
		expect(code).toBe(0);
		for (const id of ids) expect(await a2a(v.dir, "read", id, "--json").then((x) => x.json[0].state)).toBe("answered");
		const said = errors.join("").split("\n").filter((l) => l.startsWith("telemetry:"));
		expect(said.length).toBeGreaterThanOrEqual(1);
		expect(said.length).toBeLessThanOrEqual(2);
		expect(said.join("\n")).toMatch(/4 span\(s\) could not be sent/);
	}, 30_000);
});
