import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFrontmatter } from "../../src/core/frontmatter";
import { useCliBundle } from "../helpers/cli-process";
import type { Watcher } from "../helpers/cli-process";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// The second adversarial review (after the router's rewrite), the items found through the CLI: one
// named test per break, on a real folder; `a2a route --watch` runs as a real child process.

const A = "10-backend-group";
const B = "20-frontend-group";

const cli = useCliBundle();

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault("a2a-review2-cli-");
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
});
afterEach(() => v.cleanup());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (without asserting on time) until `check` holds; fails with `what` after a generous deadline. */
async function until(what: string, check: () => boolean | Promise<boolean>, watcher?: Watcher): Promise<void> {
	const deadline = Date.now() + 20_000;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}${watcher ? `\nstderr:\n${watcher.errors.join("\n")}\nstdout:\n${watcher.lines.join("\n")}` : ""}`);
		await sleep(20);
	}
}

/** `a2a route --watch --json` on the test vault with `args`, collecting what it prints (stopped after the test). */
function watch(...args: string[]): Watcher {
	const child = cli.spawn(["route", "--watch", "--json", "--vault", v.dir, ...args]);
	const lines: string[] = [];
	const errors: string[] = [];
	const collect = (into: string[]) => {
		let buffer = "";
		return (chunk: Buffer) => {
			buffer += chunk.toString("utf8");
			const parts = buffer.split("\n");
			buffer = parts.pop() ?? "";
			into.push(...parts);
		};
	};
	child.stdout?.on("data", collect(lines));
	child.stderr?.on("data", collect(errors));
	const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
	return { child, lines, errors, closed };
}

async function stop(watcher: Watcher): Promise<void> {
	watcher.child.kill("SIGTERM");
	await watcher.closed;
}

describe("review 2, item 3: a2a route --watch routes only a note its writer is done with", () => {
	it("a valid first half, then the rest appended: the delivered note has the whole body, and the note was looked at a few times, not polled", async () => {
		const w = watch("--grace", "2", "--interval", "60000");
		const rel = `${BOX(A, "outbox")}/ask.md`;
		const first = requestNote({ message_id: "half-written-1", target_group: B }, "## Question\n\nWhat fields are mandatory?\n");
		await v.write(rel, first);
		// The first half alone is a valid message: the watcher sees it and lets it wait for its writer.
		const looks = () => w.errors.filter((l) => l.startsWith(`waiting for its writer: ${rel} `));
		await until("the watcher to see the first half", () => looks().length > 0, w);
		expect(await v.files(BOX(B, "inbox"))).toEqual([]);
		await fs.appendFile(path.join(v.dir, rel), "\n## Context\n\nThe second half, written a moment later.\n");
		await until("the delivery", async () => (await v.files(BOX(B, "inbox"))).length > 0, w);
		const inbox = await v.files(BOX(B, "inbox"));
		expect(inbox).toEqual([`${BOX(B, "inbox")}/ask.md`]);
		const body = await v.body(inbox[0]);
		expect(body).toContain("What fields are mandatory?");
		expect(body).toContain("The second half, written a moment later.");
		expect(await v.frontmatter(inbox[0])).toMatchObject({ message_id: "half-written-1", state: "delivered" });
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
		// Looked at on each change and once more when quiet: a timer, not a loop (2 s of polling would be dozens of looks).
		expect(looks().length).toBeGreaterThanOrEqual(1);
		expect(looks().length).toBeLessThanOrEqual(4);
		expect(w.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((d) => d.outcome === "delivered")).toHaveLength(1);
		await stop(w);
	});

	it("a one-off a2a route still routes a note at once, however fresh", async () => {
		await v.write(`${BOX(A, "outbox")}/now.md`, requestNote({ message_id: "at-once-1", target_group: B }));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.code).toBe(0);
		expect(run.json.map((d) => d.outcome)).toEqual(["delivered"]);
		expect(readFrontmatter(await v.read(`${BOX(B, "inbox")}/now.md`))).toMatchObject({ message_id: "at-once-1" });
	});
});
