import fsModule from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { createUnderFreeName } from "../../src/router/free-names";
import { BOX, REGISTRY, makeTempVault } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// A note written into an outbox can be taken by a router in another process the moment it is
// linked into place, before the writer looks at where it landed (the check against a folder
// swapped for a link). The writer must then still know its note was written inside the vault: it
// looks at the temporary name the same write linked, not only at the note's name. Found by an MCP
// agent under load being told "led elsewhere, outside the vault" for a note the router had delivered.

const A = "10-backend-group";

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault("a2a-moved-on-");
	await v.write("A2A/registry.yaml", REGISTRY);
});
afterEach(async () => {
	vi.restoreAllMocks();
	syncBuiltinESMExports();
	await v.cleanup();
});

/** After every link into the outbox, the note is moved on at once (as a router would take it). */
function routerTakesEachNote(): string[] {
	const taken: string[] = [];
	const api = fsModule as unknown as Record<string, (...a: unknown[]) => unknown>;
	const link = api.linkSync;
	vi.spyOn(api, "linkSync" as never).mockImplementation(((from: string, to: string) => {
		link.call(api, from, to);
		if (!path.basename(to).startsWith(".")) {
			const moved = path.join(v.dir, BOX(A, "inbox"), path.basename(to));
			fsModule.mkdirSync(path.dirname(moved), { recursive: true });
			fsModule.renameSync(to, moved);
			taken.push(path.basename(to));
		}
	}) as never);
	syncBuiltinESMExports();
	return taken;
}

describe("a note moved on as soon as it is written", () => {
	it("create and createUnderFirstFree report it written, and it is where the router took it", async () => {
		const vault = new NodeVault(v.dir);
		await vault.ensureFolder(BOX(A, "outbox"));
		const taken = routerTakesEachNote();
		expect(await vault.create(`${BOX(A, "outbox")}/one.md`, "---\nmessage_id: one\n---\n")).toBe(true);
		expect(await createUnderFreeName(vault, BOX(A, "outbox"), "two.md", "---\nmessage_id: two\n---\n", "two")).toBe(`${BOX(A, "outbox")}/two.md`);
		expect(taken).toEqual(["one.md", "two.md"]);
		expect((await v.read(`${BOX(A, "inbox")}/two.md`)).startsWith("---\nmessage_id: two")).toBe(true);
		// No temporary file is left behind.
		expect(fsModule.readdirSync(path.join(v.dir, BOX(A, "outbox")))).toEqual([]);
	});
});
