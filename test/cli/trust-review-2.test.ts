import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFrontmatter } from "../../src/core/frontmatter";
import { parseLogLines } from "../../src/core/routing-log";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// The second adversarial review of issue 10 (after the router's rewrite): one named test per break it
// found in the router's log and its files, through the CLI on a real folder.

const A = "10-backend-group";
const B = "20-frontend-group";
const TODAY = () => new Date().toISOString().slice(0, 10);

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault("a2a-review2-");
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
});
afterEach(() => v.cleanup());

/** Every row of every log note (not of conflict copies). */
async function logRows(): Promise<ReturnType<typeof parseLogLines>> {
	const names = (await fs.readdir(path.join(v.dir, "A2A/log"))).filter((n) => /^\d{4}-\d{2}-\d{2}\.md$/.test(n));
	return (await Promise.all(names.map((n) => v.read(`A2A/log/${n}`)))).flatMap(parseLogLines);
}

describe("review 2, item 2: a log that cannot be written never stops a move half way", () => {
	it("with a folder where today's log note should be, the request is delivered once, the outbox is empty, and the run warns", async () => {
		await fs.mkdir(path.join(v.dir, "A2A/log", `${TODAY()}.md`), { recursive: true });
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "log-blocked-1", target_group: B }));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.code, run.stderr.join("\n")).toBe(0);
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
		const inbox = await v.files(BOX(B, "inbox"));
		expect(inbox).toHaveLength(1);
		expect(readFrontmatter(await v.read(inbox[0]))).toMatchObject({ message_id: "log-blocked-1", state: "delivered" });
		expect(run.stderr.join("\n")).toMatch(/warning: the log A2A\/log\/\d{4}-\d{2}-\d{2}\.md could not be written .*log-blocked-1/);
		// A second run finds nothing to do: the note is not delivered again.
		const again = await a2a(v.dir, "route", "--json");
		expect(again.code).toBe(0);
		expect(await v.files(BOX(B, "inbox"))).toEqual(inbox);
	});
});

describe("review 2, item 10: a log's conflict copy joins the log as rows the router would write", () => {
	const ROW = (outcome: string, id: string, note: string) => `| 10:00:00 | ${outcome} | ${id} | t-1 | a -&gt; b |  | ${note} |`;

	it("HTML, links and embeds in a copy's rows are escaped; lines that are not rows are dropped; rows are never there twice", async () => {
		const day = TODAY();
		await v.write(`A2A/log/${day}.md`, `# Routing log ${day}\n\n| Time | Outcome | Message | Trace | Route | Error | Note |\n| --- | --- | --- | --- | --- | --- | --- |\n${ROW("delivered", "m-1", "[[m-1]]")}\n`);
		const copy = [
			ROW("delivered", "m-1", "[[m-1]]"), // already in the log
			ROW("delivered", "m-2", "[[m-2]]"),
			"| 10:00:01 | rejected | <img src=x onerror=alert(1)> | t | r |  | ![[secret.png]] |",
			"| 10:00:02 | delivered | see https://evil.example/x | t | r |  | n |",
			"| 10:00:03 | pwned | m-3 | t | r |  | n |", // not an outcome
			"<script>alert(1)</script>",
			"[click](https://evil.example)",
		].join("\n");
		await v.write(`A2A/log/${day}.sync-conflict-20260101-000000-ABCDEFG.md`, `${copy}\n`);
		expect((await a2a(v.dir, "route")).code).toBe(0);
		const text = await v.read(`A2A/log/${day}.md`);
		// The copy holds more than rows (the script and the link lines): it is kept, its rows merged.
		expect(await v.files("A2A/log")).toEqual([`A2A/log/${day}.md`, `A2A/log/${day}.sync-conflict-20260101-000000-ABCDEFG.md`]);
		expect(text).not.toMatch(/<img|<script|\]\(http|https:\/\/|!\[\[/);
		expect(text).toContain("&lt;img src\\=x onerror\\=alert(1)&gt;");
		const rows = parseLogLines(text);
		expect(rows.map((r) => r.messageId)).toEqual(["m-1", "m-2", "<img src=x onerror=alert(1)>", "see https://evil.example/x"]);
		// The same rows again in a copy of rows only (the other device merged them too): nothing is added twice, the copy goes.
		const rowsOnly = copy.split("\n").filter((line) => line.startsWith("| ")).join("\n");
		await v.write(`A2A/log/${day} (conflicted copy 2).md`, `${rowsOnly}\n`);
		expect((await a2a(v.dir, "route")).code).toBe(0);
		expect(parseLogLines(await v.read(`A2A/log/${day}.md`))).toHaveLength(4);
		expect(await v.files("A2A/log")).not.toContain(`A2A/log/${day} (conflicted copy 2).md`);
	});

	it("a note only named like a log's conflict copy, holding prose, is kept (review 3)", async () => {
		const day = TODAY();
		await v.write(`A2A/log/${day} (conflict notes).md`, "My notes about today's conflict.\n");
		const run = await a2a(v.dir, "route");
		expect(run.code).toBe(0);
		expect(await v.read(`A2A/log/${day} (conflict notes).md`)).toBe("My notes about today's conflict.\n");
		expect(run.stderr.join("\n")).toContain("is named like a conflict copy of the log but holds more than log rows");
	});

	it("a copy named after a day that does not exist is left alone, and routing goes on", async () => {
		await v.write("A2A/log/2026-02-30.sync-conflict-20260101-000000-ABCDEFG.md", `${ROW("delivered", "m-9", "[[m-9]]")}\n`);
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "after-bad-copy", target_group: B }));
		for (let i = 0; i < 2; i++) {
			const run = await a2a(v.dir, "route", "--json");
			expect(run.code, run.stderr.join("\n")).toBe(0);
		}
		expect(await v.files(BOX(B, "inbox"))).toHaveLength(1);
		expect((await logRows()).map((r) => r.messageId)).toEqual(["after-bad-copy"]);
		expect(await v.files("A2A/log")).toContain("A2A/log/2026-02-30.sync-conflict-20260101-000000-ABCDEFG.md");
	});
});

describe("review 2, item 14: no clickable address in the log", () => {
	it("a target group holding https:// and www. is written so that Obsidian makes no link of it, and reads back whole", async () => {
		const target = "https://evil.example/a www.evil.example";
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "url-1", target_group: target }));
		expect((await a2a(v.dir, "route")).code).toBe(0);
		const text = (await Promise.all((await v.files("A2A/log")).map((f) => v.read(f)))).join("\n");
		expect(text).not.toMatch(/https:\/\/|www\./);
		expect((await logRows()).map((r) => r.route), text).toContain(`${A} -> ${target}`);
	});
});
