import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IndexWatch } from "../../servers/mcp/index-watch";
import { NodeVault } from "../../node/node-vault";
import { keepIndexFreshWith, refreshIndex } from "../../src/router/index-refresh";
import { Router } from "../../src/router/router";
import { failReads } from "../helpers/failing-reads";
import { ARCHIVED, BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// How `a2a mcp` keeps its index fresh: after the first full read, a refresh reads only the files
// that changed (file events), lists a folder only when it starts to watch it, and reads everything
// again when the registry changes. Counted through the vault port, not timed.

const BACKEND = "10-backend-group";
const FRONTEND = "20-frontend-group";

let v: TempVault;
let watch: IndexWatch | undefined;
beforeEach(async () => {
	v = await makeTempVault();
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
});
afterEach(async () => {
	vi.restoreAllMocks();
	watch?.close();
	await v.cleanup();
});

/** Lets the file system's change events reach their watchers. */
const events = () => new Promise((r) => setTimeout(r, 100));

async function watched(fullEveryMs?: number, say?: (line: string) => void): Promise<{ router: Router; listings: string[]; reads: string[] }> {
	const vault = new NodeVault(v.dir);
	const listings: string[] = [];
	const reads: string[] = [];
	const list = vault.list.bind(vault);
	const read = vault.read.bind(vault);
	vault.list = (folder) => (listings.push(folder), list(folder));
	vault.read = (p, options) => (reads.push(p), read(p, options));
	const router = new Router(vault);
	await router.loadRegistry();
	if (say) router.warnings.sayAsTheyCome(say);
	watch = new IndexWatch(router, (p) => path.join(v.dir, ...p.split("/")), fullEveryMs);
	const w = watch;
	keepIndexFreshWith(router, () => w.refresh());
	return { router, listings, reads };
}

describe("the MCP server's index, kept fresh by file events", () => {
	it("reads everything once, then only what changed", async () => {
		const { router, listings, reads } = await watched();
		await refreshIndex(router);
		expect(listings.length).toBeGreaterThan(8);
		listings.length = 0;
		reads.length = 0;
		const sent = await a2a(v.dir, "send", "--from", BACKEND, "--to", FRONTEND, "--type", "query", "--question", "Q?", "--json");
		expect((await a2a(v.dir, "route")).code).toBe(0);
		await events();
		await refreshIndex(router);
		const id = sent.json[0].message_id as string;
		expect(router.index.withId(id).map((e) => e.location)).toEqual([{ area: "box", box: "inbox", group: FRONTEND }]);
		// No folder listed again; the delivered note read (and nothing outside the folders that changed).
		expect(listings).toEqual([]);
		expect(reads).toContain(`${BOX(FRONTEND, "inbox")}/${path.basename(sent.json[0].path as string)}`);
	});

	it("a thorough refresh still lists everything, and a changed registry reads everything again", async () => {
		const { router, listings } = await watched();
		await refreshIndex(router);
		listings.length = 0;
		await refreshIndex(router, { thorough: true });
		expect(listings).toContain(BOX(BACKEND, "inbox"));
		listings.length = 0;
		await v.write("A2A/registry.yaml", `${REGISTRY}\n`);
		await events();
		await refreshIndex(router);
		expect(listings).toContain("A2A/dead-letter");
	});

	it("says once that a note cannot be read, though every refresh reads it again", async () => {
		const archived = `${ARCHIVED(BACKEND)}/old.md`;
		await v.write(archived, requestNote({ message_id: "old-1" }));
		const failing = failReads(new Set([archived]), "EIO");
		const warnings: string[] = [];
		// Every refresh lists and reads everything again.
		const { router } = await watched(0, (line) => warnings.push(line));
		await refreshIndex(router);
		await refreshIndex(router);
		await refreshIndex(router);
		expect(failing.attempts(archived)).toBeGreaterThanOrEqual(3);
		expect(warnings).toEqual([`${archived} cannot be read (input/output error, EIO): the router goes on without what it says, and reads it again when it next looks at it`]);
	});
});
