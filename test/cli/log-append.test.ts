import fsModule, { promises as fs } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NodeVault } from "../../node/node-vault";
import type { RoutingDecision } from "../../src/core/decision";
import { VaultLayout } from "../../src/core/layout";
import { logHeader, logLine, parseLogLines } from "../../src/core/routing-log";
import { ObsidianVault } from "../../src/obsidian/obsidian-vault";
import { LogWriter } from "../../src/router/log-writer";
import type { VaultPort } from "../../src/router/vault-port";
import { createTempHost } from "../../test-support/fake-obsidian/node-host";
import type { TempHost } from "../../test-support/fake-obsidian/node-host";

// Two devices may finish one step of one message (one copied the note, the other removed the
// original), and each records the same row. A sync engine carries one device's log to the other
// between those two writes: the row must still be in the day's log once. And a log the sync engine
// replaced while the router kept it open must get the router's next rows, not lose them.

const DAY = "2026-12-01";
const LOG = `A2A/log/${DAY}.md`;
let dir: string;
let host: TempHost | null = null;
beforeEach(async () => {
	dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-log-append-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	syncBuiltinESMExports();
	await host?.cleanup();
	host = null;
	await fs.rm(dir, { recursive: true, force: true });
});

const decision = (n: number, second = n): RoutingDecision => ({
	outcome: "delivered",
	message_id: `m-${n}`,
	trace_id: `t-${n}`,
	source_group: "10-a",
	target_group: "20-b",
	path: `A2A/groups/20-b/inbox/m-${n}.md`,
	time: Date.parse(`${DAY}T10:00:${String(second).padStart(2, "0")}Z`),
});

/** What a sync engine does: the other device's version written to a temp file and renamed over the log. */
async function syncReplaces(vaultDir: string, text: string): Promise<void> {
	const temp = path.join(vaultDir, "A2A/log", `.syncthing.${DAY}.md.tmp`);
	await fs.writeFile(temp, text);
	await fs.rename(temp, path.join(vaultDir, LOG));
}

const rowsOf = async (vaultDir: string) => parseLogLines(await fs.readFile(path.join(vaultDir, LOG), "utf8")).map((r) => r.messageId);

async function twoDevicesFinishOneStep(port: VaultPort, vaultDir: string, settle: () => Promise<void>): Promise<string[]> {
	const log = new LogWriter(port, () => new VaultLayout("A2A"));
	await log.write(decision(1));
	await port.flush?.();
	await log.write(decision(2));
	// The other device's log arrives: this device's rows, and its own row for message 3.
	await syncReplaces(vaultDir, logHeader(DAY) + logLine(decision(1)) + logLine(decision(2)) + logLine(decision(3)));
	await settle();
	// This device finishes the same step of message 3 (same second, same row), then routes message 4.
	await log.write(decision(3));
	await log.write(decision(4));
	await port.flush?.();
	return rowsOf(vaultDir);
}

describe("the routing log when a sync engine writes it too", () => {
	it("NodeVault: a row another device's log already brought is not appended again, and the next row reaches the replaced log", async () => {
		await fs.mkdir(path.join(dir, "A2A/log"), { recursive: true });
		expect(await twoDevicesFinishOneStep(new NodeVault(dir), dir, async () => {})).toEqual(["m-1", "m-2", "m-3", "m-4"]);
	});

	it("ObsidianVault (fake Obsidian over a real folder): the same", async () => {
		host = await createTempHost({ prefix: "a2a-log-append-obsidian-" });
		await host.loadVault();
		await host.setLayoutReady();
		await fs.mkdir(path.join(host.dir, "A2A/log"), { recursive: true });
		const h = host;
		expect(await twoDevicesFinishOneStep(new ObsidianVault(h.app as never), h.dir, () => h.settled())).toEqual(["m-1", "m-2", "m-3", "m-4"]);
	});

	it("NodeVault reads the log only when something else wrote it since its own last append", async () => {
		await fs.mkdir(path.join(dir, "A2A/log"), { recursive: true });
		const port = new NodeVault(dir);
		const log = new LogWriter(port, () => new VaultLayout("A2A"));
		const reads = countReads();
		for (let n = 1; n <= 20; n++) {
			await log.write(decision(n));
			if (n % 5 === 0) await port.flush?.();
		}
		expect(reads.count(), "reads while only this vault wrote the log").toBe(0);
		await fs.appendFile(path.join(dir, LOG), logLine(decision(21)));
		await log.write(decision(21));
		await log.write(decision(22));
		await port.flush?.();
		expect(reads.count(), "reads after another writer appended").toBe(1);
		expect(await rowsOf(dir)).toEqual(Array.from({ length: 22 }, (_, i) => `m-${i + 1}`));
	});
});

/** Counts whole-file reads NodeVault makes. */
function countReads(): { count: () => number } {
	let count = 0;
	const api = fsModule as unknown as Record<string, (...a: unknown[]) => unknown>;
	const original = api.readFileSync;
	vi.spyOn(api, "readFileSync" as never).mockImplementation(((...args: unknown[]) => {
		count++;
		return original.apply(api, args);
	}) as never);
	syncBuiltinESMExports();
	return { count: () => count };
}

describe("issue 27: the log folder is checked at every append, also through a descriptor kept open", () => {
	it("a log folder swapped for a link to a folder elsewhere between two appends of one pass: the second is refused, nothing written there", async () => {
		const vault = new NodeVault(dir);
		await fs.mkdir(path.join(dir, "A2A/log"), { recursive: true });
		expect(await vault.append(LOG, "- first row\n", "# log\n\n")).toBe("appended");
		expect(await vault.append(LOG, "- second row\n", "# log\n\n")).toBe("appended");
		// Moved out of the vault and linked back, while the descriptor of the pass is still open.
		const outside = `${dir}-outside`;
		await fs.rename(path.join(dir, "A2A/log"), outside);
		await fs.symlink(outside, path.join(dir, "A2A/log"));
		try {
			const before = await fs.readFile(path.join(outside, `${DAY}.md`), "utf8");
			await expect(vault.append(LOG, "- third row\n", "# log\n\n")).rejects.toThrow(/outside the vault/);
			expect(await fs.readFile(path.join(outside, `${DAY}.md`), "utf8")).toBe(before);
		} finally {
			await vault.flush();
			await fs.rm(outside, { recursive: true, force: true });
		}
	});
});

describe("review of issue 27, L1: a log that is a hard link to a file elsewhere", () => {
	it("the append is refused, saying why, and the other file is not written", async () => {
		await fs.mkdir(path.join(dir, "A2A/log"), { recursive: true });
		const outside = `${dir}-profile.sh`;
		await fs.writeFile(outside, "export PATH=/usr/bin\n");
		await fs.link(outside, path.join(dir, LOG));
		const vault = new NodeVault(dir);
		try {
			await expect(vault.append(LOG, "- a row\n", "# log\n\n")).rejects.toThrow(/one of 2 hard links/);
			await vault.flush();
			expect(await fs.readFile(outside, "utf8")).toBe("export PATH=/usr/bin\n");
		} finally {
			await fs.rm(outside, { force: true });
		}
	});

	it("the router's log writer reports the refusal with the row itself, so no row is lost", async () => {
		await fs.mkdir(path.join(dir, "A2A/log"), { recursive: true });
		const outside = `${dir}-profile.sh`;
		await fs.writeFile(outside, "export PATH=/usr/bin\n");
		const vault = new NodeVault(dir);
		const writer = new LogWriter(vault, () => new VaultLayout("A2A"));
		await fs.link(outside, path.join(dir, LOG));
		try {
			await writer.write(decision(1));
			const problems = writer.takeProblems();
			expect(problems.join("\n")).toMatch(/hard links/);
			expect(problems.join("\n")).toContain("m-1");
			expect(await fs.readFile(outside, "utf8")).toBe("export PATH=/usr/bin\n");
		} finally {
			await vault.flush();
			await fs.rm(outside, { force: true });
		}
	});
});
