import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYNC_CONFLICT_NAME, sleep, startSyncPair } from "../helpers/syncthing";
import type { SyncPair } from "../helpers/syncthing";

// The two-Syncthing harness (test/helpers/syncthing.ts) against the real thing: two folders kept in
// step by two Syncthing instances on loopback. What it shows here is what later tests of routing
// across synced vaults rely on: files cross both ways (dot-files too, with the writer's mtime), a
// delete crosses, pause cuts the link and resume restores it, edits on both sides while cut leave a
// conflict copy named as documented, and stop leaves no process behind. The sync delays it saw are
// printed (they are data for the sync margin's default, not asserted).

let root = "";
let pair: SyncPair | undefined;
const dirA = () => path.join(root, "vault-a");
const dirB = () => path.join(root, "vault-b");
const at = (dir: string, rel: string) => path.join(dir, ...rel.split("/"));
const read = (dir: string, rel: string) => fs.readFile(at(dir, rel), "utf8");
const exists = (dir: string, rel: string) => fs.stat(at(dir, rel)).then(() => true, () => false);
const mtimeNs = async (dir: string, rel: string) => (await fs.stat(at(dir, rel), { bigint: true })).mtimeNs;
const conflictCopies = async (dir: string) => (await fs.readdir(dir)).filter((f) => SYNC_CONFLICT_NAME.test(f)).sort();

function running(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code !== "ESRCH";
	}
}

/** YYYYMMDD-HHMMSS in local time, as in conflict copy names. */
function stamp(ms: number): string {
	const d = new Date(ms);
	const p = (n: number) => String(n).padStart(2, "0");
	return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

const live = (): SyncPair => {
	if (!pair) throw new Error("the Syncthing pair did not start");
	return pair;
};

describe("two Syncthing instances keep two folders in step (test/helpers/syncthing.ts)", () => {
	beforeAll(async () => {
		root = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-synced-"));
		await fs.mkdir(dirA());
		await fs.mkdir(dirB());
		pair = await startSyncPair({ folderA: dirA(), folderB: dirB(), fsWatcherDelayS: 1 });
	}, 60_000);

	afterAll(async () => {
		await pair?.stop();
		await fs.rm(root, { recursive: true, force: true });
	}, 60_000);

	it("carries a file written on a to b and one written on b to a, with the writer's modification time", async () => {
		const p = live();
		for (let i = 0; i < 3; i++) {
			await p.writeAndMeasure("a", `notes/from a ${i}.md`, `# From a ${i}\n\nnaïve café 🚀\n`);
			await p.writeAndMeasure("b", `notes/from b ${i}.md`, `# From b ${i}\n`);
		}
		// a modification time set after the write (as `touch -d` or a sync tool would) crosses too
		await fs.writeFile(at(dirA(), "old.md"), "old\n");
		await fs.utimes(at(dirA(), "old.md"), new Date("2020-01-02T03:04:05.678Z"), new Date("2020-01-02T03:04:05.678Z"));
		await p.waitIdle(30_000);

		for (let i = 0; i < 3; i++) {
			expect(await read(dirB(), `notes/from a ${i}.md`)).toBe(`# From a ${i}\n\nnaïve café 🚀\n`);
			expect(await read(dirA(), `notes/from b ${i}.md`)).toBe(`# From b ${i}\n`);
			expect(await mtimeNs(dirB(), `notes/from a ${i}.md`)).toBe(await mtimeNs(dirA(), `notes/from a ${i}.md`));
			expect(await mtimeNs(dirA(), `notes/from b ${i}.md`)).toBe(await mtimeNs(dirB(), `notes/from b ${i}.md`));
		}
		expect(await read(dirB(), "old.md")).toBe("old\n");
		expect((await fs.stat(at(dirB(), "old.md"))).mtime.toISOString()).toBe("2020-01-02T03:04:05.678Z");
	}, 45_000);

	it("carries dot-files and dot-folders: nothing is ignored by default", async () => {
		const p = live();
		await p.writeAndMeasure("a", ".hidden.md", "hidden\n");
		await p.writeAndMeasure("a", ".obsidian/app.json", "{}\n");
		await p.writeAndMeasure("b", "A2A/.router.lock", "lease\n");
		expect(await read(dirB(), ".hidden.md")).toBe("hidden\n");
		expect(await read(dirB(), ".obsidian/app.json")).toBe("{}\n");
		expect(await read(dirA(), "A2A/.router.lock")).toBe("lease\n");
	}, 45_000);

	it("carries a delete both ways", async () => {
		const p = live();
		await p.writeAndMeasure("a", "to delete.md", "bye\n");
		await fs.rm(at(dirA(), "to delete.md"));
		await p.waitGone("b", "to delete.md");
		await fs.rm(at(dirB(), "notes/from a 0.md"));
		await p.waitGone("a", "notes/from a 0.md");
		await p.waitIdle(30_000);
		expect(await exists(dirA(), "to delete.md")).toBe(false);
		expect(await exists(dirB(), "to delete.md")).toBe(false);
		expect(await exists(dirA(), "notes/from a 0.md")).toBe(false);
		expect(await exists(dirB(), "notes/from a 0.md")).toBe(false);
	}, 45_000);

	it("pause stops propagation and resume restores it; edits on both sides meanwhile leave one conflict copy", async () => {
		const p = live();
		await p.writeAndMeasure("a", "shared.md", "base\n");
		await p.waitIdle(30_000);

		await p.pause();
		expect(await p.connected()).toBe(false);
		await fs.writeFile(at(dirA(), "while paused.md"), "written while paused\n");
		await fs.writeFile(at(dirA(), "shared.md"), "edited on a\n");
		const loserMtime = await mtimeNs(dirA(), "shared.md");
		await sleep(1100); // b's edit is the newer one by more than a second: it wins
		await fs.writeFile(at(dirB(), "shared.md"), "edited on b\n");
		await p.scan();
		// a has indexed its new file...
		const info = (await p.a.rest("GET", `/rest/db/file?folder=vault&file=${encodeURIComponent("while paused.md")}`)) as { local?: { name?: string; deleted?: boolean } };
		expect(info.local).toMatchObject({ name: "while paused.md", deleted: false });
		// ...and b does not get it while the link is cut, not even after three ordinary sync delays
		await sleep(3000);
		expect(await exists(dirB(), "while paused.md")).toBe(false);
		expect(await read(dirB(), "shared.md")).toBe("edited on b\n");
		expect(await read(dirA(), "shared.md")).toBe("edited on a\n");

		const resumedAt = Date.now();
		await p.resume();
		await p.waitIdle(40_000);
		const resolvedBy = Date.now();
		expect(await read(dirB(), "while paused.md")).toBe("written while paused\n");
		// the newer edit wins on both sides; the older one is kept in a conflict copy on both sides
		expect(await read(dirA(), "shared.md")).toBe("edited on b\n");
		expect(await read(dirB(), "shared.md")).toBe("edited on b\n");
		const copiesA = await conflictCopies(dirA());
		expect(copiesA).toHaveLength(1);
		expect(await conflictCopies(dirB())).toEqual(copiesA);
		const [copy] = copiesA;
		const m = SYNC_CONFLICT_NAME.exec(copy);
		// shared.sync-conflict-YYYYMMDD-HHMMSS-<first 7 characters of the winner's device ID>.md
		expect(m?.[1]).toBe("shared");
		expect(m?.[4]).toBe(p.b.shortId);
		expect(m?.[5]).toBe(".md");
		// the stamp is when the conflict was resolved (after resume; both edits are older), in local time
		const when = `${m?.[2]}-${m?.[3]}`;
		expect(when >= stamp(resumedAt - 1000) && when <= stamp(resolvedBy + 1000), `${when} between ${stamp(resumedAt)} and ${stamp(resolvedBy)}`).toBe(true);
		expect(await read(dirA(), copy)).toBe("edited on a\n");
		expect(await read(dirB(), copy)).toBe("edited on a\n");
		// the copy keeps the losing edit's modification time
		expect(await mtimeNs(dirA(), copy)).toBe(loserMtime);
		expect(await mtimeNs(dirB(), copy)).toBe(loserMtime);
	}, 60_000);

	it("stop ends both Syncthing processes and removes their homes; stopping twice is harmless", async () => {
		const p = live();
		const { count, medianMs, maxMs } = p.delayStats();
		console.log(`Syncthing sync delay (write on one side until the same bytes are on the other, fsWatcherDelayS 1): ${count} writes, median ${Math.round(medianMs)} ms, max ${Math.round(maxMs)} ms`);
		expect(count).toBeGreaterThan(0);

		const pids = [p.a.pid, p.b.pid];
		expect(pids.every(running)).toBe(true);
		await p.stop();
		await p.stop();
		expect(pids.filter(running)).toEqual([]);
		expect(await exists(p.a.home, "")).toBe(false);
		expect(await exists(p.b.home, "")).toBe(false);
		// the folders themselves are the test's: they stay
		expect(await read(dirA(), "shared.md")).toBe("edited on b\n");
	}, 45_000);
});
