import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFrontmatter } from "../../src/core/frontmatter";
import { parseRegistry } from "../../src/core/registry";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// The third adversarial review (a2a serve, the lease claim, the log merge, the registry's folder
// checks): one named test per break it found. Each fails on the code it was written against.

const A = "10-backend-group";
const B = "20-frontend-group";

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault("a2a-review3-");
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
});
afterEach(() => v.cleanup());

describe("review 3: a timeout_seconds too large for a date leaves a note in its outbox for ever", () => {
	it("a request with timeout_seconds 99999999999999 ends somewhere (delivered or dead-lettered), not stuck with 'Invalid time value'", async () => {
		await v.write(`${BOX(A, "outbox")}/huge.md`, requestNote({ message_id: "huge-timeout-1", target_group: B, timeout_seconds: 99999999999999 }));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.stderr.join("\n")).not.toContain("Invalid time value");
		expect(await v.files(BOX(A, "outbox"))).toEqual([]);
		const placed = [...(await v.files(BOX(B, "inbox"))), ...(await v.files("A2A/dead-letter"))];
		expect(placed).toHaveLength(1);
		expect(readFrontmatter(await v.read(placed[0]))).toMatchObject({ message_id: "huge-timeout-1" });
	});
});

describe("review 3: group folders are compared case-sensitively with the router's own folders and other groups", () => {
	const registry = (groups: string) => parseRegistry(`groups:\n  ${A}: {}\n${groups}`, "A2A");
	it("a folder a2a/dead-letter (the dead-letter folder on macOS, Windows and phones) is a registry error", () => {
		const r = registry("  evil:\n    folder: a2a/dead-letter\n");
		expect(r.groups.has("evil")).toBe(false);
		expect(r.errors.map((e) => e.where)).toContain("groups.evil");
	});
	it("a folder a2a (the A2A root itself on a case-insensitive disk) is a registry error", () => {
		const r = registry("  evil:\n    folder: a2a\n");
		expect(r.groups.has("evil")).toBe(false);
	});
	it("a folder A2A/Groups/10-Backend-Group (another group's default folder, other case) is a registry error", () => {
		const r = registry("  evil:\n    folder: A2A/Groups/10-Backend-Group\n");
		expect(r.groups.has("evil")).toBe(false);
	});
});

describe("review 3: a claim file with a future mtime keeps every router from taking a free lease", () => {
	it("a router-claim file dated next year from another device does not stop a2a route from routing today", async () => {
		const claim = path.join(v.dir, "A2A/router-claim-1.tmp");
		await fs.writeFile(claim, "another-device\n");
		const nextYear = new Date(Date.now() + 365 * 24 * 3600 * 1000);
		await fs.utimes(claim, nextYear, nextYear);
		await v.write(`${BOX(A, "outbox")}/ask.md`, requestNote({ message_id: "claim-future-1", target_group: B }));
		const run = await a2a(v.dir, "route", "--json");
		expect(run.stderr.join("\n")).not.toContain("another router is taking the lease");
		expect(await v.files(BOX(B, "inbox"))).toHaveLength(1);
	});
});
