import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../cli/node-vault";
import { YamlError } from "../../src/core/frontmatter";
import type { VaultPort } from "../../src/router/vault-port";
import { MemoryVault } from "../helpers/memory-vault";

// The in-memory port the fuzz suite routes thousands of notes through must behave like NodeVault:
// the same script of calls against both gives the same results, call by call.

let dir: string;
beforeEach(async () => {
	dir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-memvault-"));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

async function script(port: VaultPort): Promise<unknown[]> {
	const out: unknown[] = [];
	const step = async (label: string, run: () => Promise<unknown>) => {
		try {
			out.push([label, await run()]);
		} catch (error) {
			out.push([label, "throws", error instanceof YamlError ? "YamlError" : "Error"]);
		}
	};
	const note = "---\na: 1\n---\nbody ✓\n";
	await step("read missing", () => port.read("A2A/x.md"));
	await step("stat missing", () => port.stat("A2A/x.md"));
	await step("list missing folder", () => port.list("A2A/nope"));
	await step("create", () => port.create("A2A/g/outbox/a.md", note));
	await step("create taken", () => port.create("A2A/g/outbox/a.md", "other"));
	await step("read", () => port.read("A2A/g/outbox/a.md"));
	await step("stat size", async () => (await port.stat("A2A/g/outbox/a.md"))?.size);
	await step("create over a folder", () => port.create("A2A/g/outbox", "x"));
	await step("move missing", () => port.move("A2A/g/outbox/none.md", "A2A/g/inbox/none.md"));
	await step("create b", () => port.create("A2A/g/inbox/b.md", note));
	await step("move onto a taken name", () => port.move("A2A/g/outbox/a.md", "A2A/g/inbox/b.md"));
	await step("move into a new folder", () => port.move("A2A/g/outbox/a.md", "A2A/g/archive/a.md"));
	await step("moved away", () => port.read("A2A/g/outbox/a.md"));
	await step("moved here", () => port.read("A2A/g/archive/a.md"));
	await step("process missing", () => port.process("A2A/g/outbox/a.md", (t) => `${t}!`));
	await step("process", () => port.process("A2A/g/archive/a.md", (t) => t.replace("body", "BODY")));
	await step("process unchanged", () => port.process("A2A/g/archive/a.md", (t) => t));
	await step("after process", () => port.read("A2A/g/archive/a.md"));
	await step("frontmatter", () => port.updateFrontmatter("A2A/g/archive/a.md", (fm) => (fm.state = "answered")));
	await step("after frontmatter", () => port.read("A2A/g/archive/a.md"));
	await step("frontmatter missing", () => port.updateFrontmatter("A2A/g/archive/none.md", (fm) => (fm.x = 1)));
	await step("create bad yaml", () => port.create("A2A/g/inbox/bad.md", "---\na: [\n---\nbody\n"));
	await step("frontmatter bad yaml", () => port.updateFrontmatter("A2A/g/inbox/bad.md", (fm) => (fm.x = 1)));
	await step("bad yaml untouched", () => port.read("A2A/g/inbox/bad.md"));
	await step("append new", () => port.append("A2A/log/d.md", "line 1\n", "# head\n"));
	await step("append more", () => port.append("A2A/log/d.md", "line 2\n", "# head\n"));
	await step("log", () => port.read("A2A/log/d.md"));
	await step("ensureFolder", () => port.ensureFolder("A2A/dead-letter"));
	await step("list", async () => (await port.list("A2A/g/inbox")).map((f) => f.path).sort());
	await step("list empty folder", () => port.list("A2A/dead-letter"));
	await step("listRecursive", async () => (await port.listRecursive("A2A")).map((f) => f.path).sort());
	await step("outside the vault", () => port.read("../outside.md"));
	await step("outside, deeper", () => port.create("A2A/../../outside.md", "x"));
	await step("name with a non-breaking space", () => port.create("A2A/g/outbox/a\u00A0b.md", "nbsp"));
	await step("listed as written", async () => (await port.list("A2A/g/outbox")).map((f) => f.path));
	await step("read back by its listed name", async () => port.read((await port.list("A2A/g/outbox"))[0].path));
	await step("lease A", () => port.acquireLease("A2A/.router.lock", "A", 15000));
	await step("lease B while A holds", () => port.acquireLease("A2A/.router.lock", "B", 15000));
	await step("lease A renews", () => port.acquireLease("A2A/.router.lock", "A", 15000));
	await step("B releases nothing", () => port.releaseLease("A2A/.router.lock", "B"));
	await step("still held", () => port.acquireLease("A2A/.router.lock", "B", 15000));
	await step("A releases", () => port.releaseLease("A2A/.router.lock", "A"));
	await step("lease B", () => port.acquireLease("A2A/.router.lock", "B", 15000));
	await step("release B", () => port.releaseLease("A2A/.router.lock", "B"));
	return out;
}

describe("MemoryVault", () => {
	it("gives the same result as NodeVault for every call of a script", async () => {
		const memory = await script(new MemoryVault());
		const disk = await script(new NodeVault(dir));
		expect(memory).toEqual(disk);
		// And the script did exercise the edges it names.
		expect(memory).toContainEqual(["move onto a taken name", "exists"]);
		expect(memory).toContainEqual(["frontmatter bad yaml", "throws", "YamlError"]);
		expect(memory).toContainEqual(["outside the vault", "throws", "Error"]);
		expect(memory).toContainEqual(["lease B while A holds", false]);
		expect(await fs.readdir(path.join(dir, "A2A"))).not.toContain(".router.lock");
	});
});
