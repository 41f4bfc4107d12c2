import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ARCHIVED, BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault();
	await v.write("A2A/registry.yaml", REGISTRY);
});
afterEach(() => v.cleanup());

const OUT = BOX("10-backend-group", "outbox");
const FRONT_IN = BOX("20-frontend-group", "inbox");

async function route() {
	const result = await a2a(v.dir, "route", "--json");
	expect(result.code).toBe(0);
	return result.json;
}

describe("a2a route", () => {
	it("delivers a valid request to the target inbox with the router's fields, body byte for byte", async () => {
		const body = "## Question\n\nWhat fields are mandatory?\n\n## Context\n\nDesigning the user table\n";
		await v.write(`${OUT}/ask.md`, requestNote({ message_id: "m-1", priority: "high" }, body));
		const [decision] = await route();
		expect(decision).toMatchObject({ outcome: "delivered", message_id: "m-1", trace_id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890", path: `${FRONT_IN}/ask.md` });
		expect(await v.exists(`${OUT}/ask.md`)).toBe(false);
		const fm = await v.frontmatter(`${FRONT_IN}/ask.md`);
		expect(fm).toMatchObject({ state: "delivered", attempt: 1, route: ["10-backend-group", "20-frontend-group"], hop_count: 0, priority: "high" });
		expect(Date.parse(fm.expires_at as string) - Date.parse(fm.delivered_at as string)).toBe(30000);
		expect(await v.body(`${FRONT_IN}/ask.md`)).toBe(`\n${body}`);
		const log = await v.read(`A2A/log/${new Date().toISOString().slice(0, 10)}.md`);
		expect(log).toContain("| delivered | m-1 |");
	});

	it("assigns a v4 message_id and created when the note has none", async () => {
		await v.write(`${OUT}/ask.md`, requestNote({}));
		const [decision] = await route();
		expect(decision.message_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		const fm = await v.frontmatter(`${FRONT_IN}/ask.md`);
		expect(fm.message_id).toBe(decision.message_id);
		expect(Number.isNaN(Date.parse(fm.created as string))).toBe(false);
	});

	it("rejects an invalid note with every problem named, and answers the sender with an error response", async () => {
		await v.write(`${OUT}/bad.md`, requestNote({ message_id: "bad-1", trace_id: undefined, hop_count: "x", priority: "urgent" }));
		const [decision] = await route();
		expect(decision).toMatchObject({ outcome: "rejected", error_code: "INVALID_MESSAGE", path: "A2A/dead-letter/bad.md" });
		const fm = await v.frontmatter("A2A/dead-letter/bad.md");
		expect(fm).toMatchObject({ state: "dead", error_code: "INVALID_MESSAGE", message_id: "bad-1" });
		for (const field of ["trace_id", "hop_count", "priority"]) expect(fm.error_message).toContain(field);
		const inbox = await v.files(BOX("10-backend-group", "inbox"));
		expect(inbox).toHaveLength(1);
		const response = await v.frontmatter(inbox[0]);
		expect(response).toMatchObject({ kind: "response", status: "error", error_code: "INVALID_MESSAGE", in_reply_to: "bad-1", target_group: "10-backend-group" });
	});

	it("rejects an unknown target group and lists the known ones", async () => {
		await v.write(`${OUT}/lost.md`, requestNote({ message_id: "lost-1", target_group: "99-nowhere" }));
		const [decision] = await route();
		expect(decision).toMatchObject({ outcome: "rejected", error_code: "GROUP_NOT_FOUND" });
		const fm = await v.frontmatter("A2A/dead-letter/lost.md");
		expect(fm.error_message).toContain("99-nowhere");
		expect(fm.error_message).toContain("20-frontend-group");
		const [response] = await v.files(BOX("10-backend-group", "inbox"));
		expect(await v.frontmatter(response)).toMatchObject({ trace_id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890", in_reply_to: "lost-1", error_code: "GROUP_NOT_FOUND" });
	});

	it("delivers hop_count 4 and rejects hop_count 5 with max_hops 5", async () => {
		await v.write(`${OUT}/four.md`, requestNote({ message_id: "h4", hop_count: 4, trace_id: "11111111-1111-4111-8111-111111111111" }));
		await v.write(`${OUT}/five.md`, requestNote({ message_id: "h5", hop_count: 5, trace_id: "22222222-2222-4222-8222-222222222222" }));
		const decisions = await route();
		expect(decisions.find((d) => d.message_id === "h4")).toMatchObject({ outcome: "delivered" });
		expect(decisions.find((d) => d.message_id === "h5")).toMatchObject({ outcome: "rejected", error_code: "MAX_HOPS_EXCEEDED" });
	});

	it("rejects A -> B -> C -> A on one trace as a cycle at the third hop", async () => {
		const trace = "33333333-3333-4333-8333-333333333333";
		await v.write(`${OUT}/ab.md`, requestNote({ message_id: "ab", trace_id: trace }));
		await route();
		await v.write(`${BOX("20-frontend-group", "outbox")}/bc.md`, requestNote({ message_id: "bc", trace_id: trace, hop_count: 1, source_group: "20-frontend-group", target_group: "30-devops-group" }));
		expect((await route())[0]).toMatchObject({ outcome: "delivered", message_id: "bc" });
		expect(await v.frontmatter(`${BOX("30-devops-group", "inbox")}/bc.md`)).toMatchObject({ route: ["10-backend-group", "20-frontend-group", "30-devops-group"] });
		await v.write(`${BOX("30-devops-group", "outbox")}/ca.md`, requestNote({ message_id: "ca", trace_id: trace, hop_count: 2, source_group: "30-devops-group", target_group: "10-backend-group" }));
		expect((await route())[0]).toMatchObject({ outcome: "rejected", error_code: "CYCLE_DETECTED", message_id: "ca" });
	});

	it("treats a second note with a delivered message_id as a duplicate, not a cycle, and sends no error response", async () => {
		await v.write(`${OUT}/one.md`, requestNote({ message_id: "same" }));
		await route();
		await v.write(`${OUT}/again.md`, requestNote({ message_id: "same" }));
		const [decision] = await route();
		expect(decision).toMatchObject({ outcome: "duplicate", error_code: "DUPLICATE", path: "A2A/dead-letter/again.md" });
		expect(await v.frontmatter("A2A/dead-letter/again.md")).toMatchObject({ error_code: "DUPLICATE", state: "dead" });
		expect(await v.files(BOX("10-backend-group", "inbox"))).toEqual([]);
	});

	it("routes a response to the requester by in_reply_to and archives the request", async () => {
		await v.write(`${OUT}/ask.md`, requestNote({ message_id: "q-1" }));
		await route();
		await v.write(`${BOX("20-frontend-group", "outbox")}/answer.md`, "---\ntrace_id: a1b2c3d4-e5f6-7890-abcd-ef1234567890\nin_reply_to: q-1\nsource_group: 20-frontend-group\nstatus: success\n---\n\n## Answer\n\nname, email, password\n");
		const [decision] = await route();
		expect(decision).toMatchObject({ outcome: "answered", path: `${BOX("10-backend-group", "inbox")}/answer.md` });
		const fm = await v.frontmatter(`${BOX("10-backend-group", "inbox")}/answer.md`);
		expect(fm).toMatchObject({ target_group: "10-backend-group", state: "delivered", kind: "response" });
		expect(typeof fm.processing_time_ms).toBe("number");
		expect(await v.frontmatter(`${ARCHIVED("20-frontend-group")}/ask.md`)).toMatchObject({ state: "answered", message_id: "q-1" });
		expect(await v.files(FRONT_IN)).toEqual([]);
	});

	it("derives a response's target from the trace when in_reply_to is absent", async () => {
		await v.write(`${OUT}/ask.md`, requestNote({ message_id: "q-2" }));
		await route();
		await v.write(`${BOX("20-frontend-group", "outbox")}/answer.md`, "---\nresponse:\n  trace_id: a1b2c3d4-e5f6-7890-abcd-ef1234567890\n  status: success\n  source_group: 20-frontend-group\n  payload:\n    answer: done\n---\n");
		const [decision] = await route();
		expect(decision).toMatchObject({ outcome: "answered", target_group: "10-backend-group" });
		const fm = await v.frontmatter(`${BOX("10-backend-group", "inbox")}/answer.md`);
		expect(fm).toMatchObject({ kind: "response", in_reply_to: "q-2" });
		expect(await v.body(`${BOX("10-backend-group", "inbox")}/answer.md`)).toBe("\n## Answer\n\ndone\n");
		expect(fm.response).toBeUndefined();
	});

	it("routes high priority first, then the oldest", async () => {
		await v.write(`${OUT}/a-low.md`, requestNote({ message_id: "low", priority: "low", trace_id: "44444444-4444-4444-8444-444444444441" }));
		await v.write(`${OUT}/b-medium-new.md`, requestNote({ message_id: "med-new", created: "2026-01-02T00:00:00Z", trace_id: "44444444-4444-4444-8444-444444444442" }));
		await v.write(`${OUT}/c-medium-old.md`, requestNote({ message_id: "med-old", created: "2026-01-01T00:00:00Z", trace_id: "44444444-4444-4444-8444-444444444443" }));
		await v.write(`${OUT}/d-high.md`, requestNote({ message_id: "high", priority: "high", trace_id: "44444444-4444-4444-8444-444444444444" }));
		expect((await route()).map((d) => d.message_id)).toEqual(["high", "med-old", "med-new", "low"]);
	});

	it("leaves sync-conflict copies, dot-files, lock and temp files in place, listed as ignored", async () => {
		const names = ["note.sync-conflict-20260101-1234.md", "note (Conflicted copy 2026).md", "note (conflict 1).md", ".hidden.md", "draft.md.tmp", "x.lock", "upload.part", "~$word.md"];
		for (const name of names) await v.write(`${OUT}/${name}`, requestNote({}));
		const decisions = await route();
		expect(decisions.filter((d) => d.outcome === "ignored")).toHaveLength(names.length);
		for (const name of names) expect(await v.exists(`${OUT}/${name}`)).toBe(true);
		expect(await v.files(FRONT_IN)).toEqual([]);
	});

	it("rejects a note whose source_group is not the group of its outbox", async () => {
		await v.write(`${OUT}/spoof.md`, requestNote({ message_id: "spoof", source_group: "40-security-group" }));
		const [decision] = await route();
		expect(decision).toMatchObject({ outcome: "rejected", error_code: "INVALID_MESSAGE" });
		expect(await v.files(BOX("40-security-group", "inbox"))).toEqual([]);
		expect(await v.files(BOX("10-backend-group", "inbox"))).toHaveLength(1);
	});

	it("quarantines a note that does not parse, keeping every original byte", async () => {
		const original = "---\ntrace_id: [unclosed\nsource_group: 10-backend-group\n---\n\n## Question\n\nhalf\n";
		await v.write(`${OUT}/broken.md`, original);
		const [decision] = await route();
		expect(decision).toMatchObject({ outcome: "rejected", error_code: "INVALID_MESSAGE" });
		const text = await v.read("A2A/dead-letter/broken.md");
		expect(text.endsWith(original)).toBe(true);
		expect(await v.frontmatter("A2A/dead-letter/broken.md")).toMatchObject({ state: "dead", quarantined: true, source_group: "10-backend-group" });
	});

	it("rejects notes over 100 KB and frontmatter over 8 KB", async () => {
		await v.write(`${OUT}/huge.md`, requestNote({ message_id: "huge" }, `## Question\n\n${"x".repeat(101 * 1024)}\n`));
		await v.write(`${OUT}/fat.md`, requestNote({ message_id: "fat", padding: "y".repeat(9 * 1024), trace_id: "55555555-5555-4555-8555-555555555555" }));
		const decisions = await route();
		expect(decisions.find((d) => d.message_id === "huge")).toMatchObject({ error_code: "INVALID_MESSAGE" });
		expect(decisions.find((d) => d.message_id === "fat")).toMatchObject({ error_code: "INVALID_MESSAGE" });
		expect((await v.frontmatter("A2A/dead-letter/huge.dead.md")).error_message).toContain("100 KB");
		expect((await v.frontmatter("A2A/dead-letter/fat.md")).error_message).toContain("8 KB");
	});

	it("never writes outside the A2A root", async () => {
		await v.write("Notes/keep.md", "# mine\n");
		await v.write(`${OUT}/ask.md`, requestNote({}));
		await v.write(`${OUT}/bad.md`, "---\n: :\n---\n");
		await route();
		const files = await v.files();
		expect(files.filter((f) => !f.startsWith("A2A/"))).toEqual(["Notes/keep.md"]);
	});

	it("exits 2 without a registry, 1 on a usage error, 2 on a registry error while still routing the rest", async () => {
		const empty = await makeTempVault();
		expect((await a2a(empty.dir, "route")).code).toBe(2);
		await empty.cleanup();
		const usage = await a2a(v.dir, "route", "--bogus");
		expect(usage.code).toBe(1);
		expect(usage.stderr.join("\n")).toContain("--bogus");
		await v.write("A2A/registry.yaml", `${REGISTRY}  "bad id!":\n    description: nope\n`);
		await v.write(`${OUT}/ask.md`, requestNote({}));
		const result = await a2a(v.dir, "route", "--json");
		expect(result.code).toBe(2);
		expect(result.stderr.join("\n")).toContain("bad id!");
		expect(result.json[0]).toMatchObject({ outcome: "delivered" });
	});
});
