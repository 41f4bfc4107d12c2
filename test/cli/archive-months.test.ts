import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ARCHIVED, BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// Archives in month folders (contract v3 section 1): answered requests and taken responses go to
// archive/YYYY-MM/ (the UTC month they were archived), while notes already in a flat archive/ stay
// where they are and count exactly as before: for duplicates, answers, trace, take and status.

const BACKEND = "10-backend-group";
const FRONTEND = "20-frontend-group";
const TRACE_OLD = "11111111-1111-4111-8111-111111111111";
const TRACE_JAN = "22222222-2222-4222-8222-222222222222";

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault("a2a-months-");
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
	// A vault from before month folders: an answered request in the flat archive ...
	const answered = { source_group: BACKEND, target_group: FRONTEND, state: "answered", delivered_at: "2025-06-01T10:00:00Z", answered_at: "2025-06-01T10:05:00Z", route: [BACKEND, FRONTEND] };
	await v.write(`${BOX(FRONTEND, "archive")}/old.md`, requestNote({ ...answered, message_id: "old-1", trace_id: TRACE_OLD }));
	// ... and one in a month folder of an earlier month.
	await v.write(`${BOX(FRONTEND, "archive")}/2026-01/jan.md`, requestNote({ ...answered, message_id: "jan-1", trace_id: TRACE_JAN }));
});
afterEach(() => v.cleanup());

async function route(): Promise<Record<string, unknown>[]> {
	const routed = await a2a(v.dir, "route", "--json");
	expect(routed.code, routed.stderr.join("\n")).toBe(0);
	return routed.json;
}

describe("archives in month folders, next to an old flat archive", () => {
	it("reads both as the history: a resent id is a DUPLICATE and an answer to an answered request is refused, wherever the request is archived", async () => {
		await v.write(`${BOX(BACKEND, "outbox")}/again-old.md`, requestNote({ message_id: "old-1", trace_id: TRACE_OLD, source_group: BACKEND, target_group: FRONTEND }));
		await v.write(`${BOX(BACKEND, "outbox")}/again-jan.md`, requestNote({ message_id: "jan-1", trace_id: TRACE_JAN, source_group: BACKEND, target_group: FRONTEND }));
		const late = (id: string, trace: string) => `---\nmessage_id: ${id}-answer\ntrace_id: ${trace}\nin_reply_to: ${id}\nsource_group: ${FRONTEND}\nstatus: success\n---\n\n## Answer\n\nagain\n`;
		await v.write(`${BOX(FRONTEND, "outbox")}/answer-old.md`, late("old-1", TRACE_OLD));
		await v.write(`${BOX(FRONTEND, "outbox")}/answer-jan.md`, late("jan-1", TRACE_JAN));
		const decisions = await route();
		const outcome = (id: string) => decisions.find((d) => d.message_id === id);
		expect(outcome("old-1")).toMatchObject({ outcome: "duplicate", error_code: "DUPLICATE" });
		expect(outcome("jan-1")).toMatchObject({ outcome: "duplicate", error_code: "DUPLICATE" });
		expect(outcome("old-1-answer")).toMatchObject({ error_code: "INVALID_MESSAGE" });
		expect(outcome("jan-1-answer")).toMatchObject({ error_code: "INVALID_MESSAGE" });
		// The old notes stay where they were.
		expect(await v.files(BOX(FRONTEND, "archive"))).toEqual([`${BOX(FRONTEND, "archive")}/2026-01/jan.md`, `${BOX(FRONTEND, "archive")}/old.md`]);
	});

	it("archives an answered request and a taken response into this month's folder; trace, read and status see every archive", async () => {
		const sent = await a2a(v.dir, "send", "--from", BACKEND, "--to", FRONTEND, "--type", "query", "--question", "Q?", "--json");
		expect(sent.code, sent.stderr.join("\n")).toBe(0);
		const id = sent.json[0].message_id as string;
		const trace = sent.json[0].trace_id as string;
		await route();
		const replied = await a2a(v.dir, "reply", "--message", id, "--status", "success", "--answer", "A", "--json");
		expect(replied.code, replied.stderr.join("\n")).toBe(0);
		await route();
		const month = ARCHIVED(FRONTEND);
		const archived = (await v.files(month)).filter((f) => !f.endsWith("/jan.md"));
		expect(archived).toHaveLength(1);
		expect(await v.frontmatter(archived[0])).toMatchObject({ message_id: id, state: "answered" });
		expect(await v.files(BOX(FRONTEND, "inbox"))).toEqual([]);

		const taken = await a2a(v.dir, "take", id, "--json");
		expect(taken.code, taken.stderr.join("\n")).toBe(0);
		const takenPath = (taken.json[0] as { path: string }).path;
		expect(takenPath.startsWith(`${ARCHIVED(BACKEND)}/`)).toBe(true);
		expect(await v.frontmatter(takenPath)).toMatchObject({ state: "taken", in_reply_to: id });
		expect((await a2a(v.dir, "take", id, "--json")).json[0]).toMatchObject({ already_taken: true, path: takenPath });

		const listed = await a2a(v.dir, "trace", trace, "--json");
		expect(listed.json.map((m) => [m.kind, m.where, m.group, m.state])).toEqual([
			["request", "archive", FRONTEND, "answered"],
			["response", "archive", BACKEND, "taken"],
		]);
		const old = await a2a(v.dir, "trace", TRACE_OLD, "--json");
		expect(old.json.map((m) => [m.message_id, m.where, m.group])).toEqual([["old-1", "archive", FRONTEND]]);
		expect((await a2a(v.dir, "read", "jan-1", "--json")).json[0]).toMatchObject({ message_id: "jan-1", where: "archive", group: FRONTEND });
		const status = await a2a(v.dir, "status", "--json");
		const row = status.json.find((r) => r.type === "group" && r.group === FRONTEND);
		expect(row).toMatchObject({ archive: 3 });
	});

	it("never takes a folder below an archive that is not a month for the archive", async () => {
		await v.write(`${BOX(FRONTEND, "archive")}/notes/kept.md`, requestNote({ message_id: "kept-1", trace_id: TRACE_OLD, source_group: BACKEND, target_group: FRONTEND, state: "answered" }));
		await v.write(`${BOX(BACKEND, "outbox")}/new.md`, requestNote({ message_id: "kept-1", trace_id: TRACE_OLD, source_group: BACKEND, target_group: FRONTEND }));
		expect((await route()).find((d) => d.message_id === "kept-1")).toMatchObject({ outcome: "delivered" });
	});
});
