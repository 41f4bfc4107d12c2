import { describe, expect, it } from "vitest";
import { initVault } from "../../../src/actions/init-vault";
import { describeInit } from "../../../src/ui/init-words";
import { correctableFields, checkRetry, notRetryable, readDeadLetter, requeue } from "../../../src/actions/retry";
import { createUnderFreeName } from "../../../src/router/free-names";
import { buildRequest } from "../../../src/core/compose";
import { readFrontmatter, updateFrontmatterText } from "../../../src/core/frontmatter";
import { serialiseMessage } from "../../../src/core/message-serialise";
import { quarantineText, stampDead } from "../../../src/core/stamps";
import { BACKEND, FRONTEND, GROUPS, NOW, routingContext } from "./context";
import { MemoryActionVault } from "./memory-action-vault";

// The actions that write more than one note: the vault set-up, new notes under a free name, and a
// dead letter put back into its sender's outbox, run against an in-memory vault.

describe("initVault", () => {
	it("creates the registry and every folder once, then finds nothing to do", async () => {
		const vault = new MemoryActionVault();
		const first = await initVault(vault, "A2A");
		expect(first.registryCreated).toBe(true);
		expect(first.folders).toEqual([
			"A2A/agents",
			"A2A/dead-letter",
			"A2A/log",
			...GROUPS.flatMap((g) => ["inbox", "outbox", "archive"].map((box) => `A2A/groups/${g}/${box}`)),
		]);
		expect(first.bases).toEqual(["A2A/Messages.base", "A2A/Agents.base"]);
		expect(vault.readRaw("A2A/Messages.base")).toContain('- file.inFolder("A2A")');
		expect(vault.readRaw("A2A/Messages.base")).toContain("name: Dead letters");
		expect(vault.readRaw("A2A/Agents.base")).toContain('- file.inFolder("A2A/agents")');
		expect(describeInit(first)).toBe("A2A is ready: 5 groups can send each other messages (10-backend-group, 20-frontend-group, 30-devops-group, 40-security-group and 1 more), each with an inbox and an outbox. Two bases list the messages and the agents. Next: create an agent.");
		const again = await initVault(vault, "A2A");
		expect(again).toMatchObject({ registryCreated: false, folders: [], bases: [] });
		expect(describeInit(again)).toBe("A2A is already set up: nothing to create (5 groups).");
	});

	it("keeps a registry that exists, and says what is wrong with it", async () => {
		const vault = new MemoryActionVault();
		vault.writeRaw("Team/registry.yaml", "groups:\n  red: {}\n  'bad id': {}\n");
		vault.writeRaw("Team/Agents.base", "my own base\n");
		const result = await initVault(vault, "Team");
		expect(vault.readRaw("Team/registry.yaml")).toBe("groups:\n  red: {}\n  'bad id': {}\n");
		expect(vault.readRaw("Team/Agents.base")).toBe("my own base\n");
		expect(result.bases).toEqual(["Team/Messages.base"]);
		expect(result.folders).toEqual(["Team/agents", "Team/dead-letter", "Team/log", "Team/groups/red/inbox", "Team/groups/red/outbox", "Team/groups/red/archive"]);
		expect(describeInit(result)).toMatch(/^Added the missing folders in Team \(1 group\)\. A base lists the messages and the agents\. The registry has problems: groups\.bad id: /);
	});
});

describe("createUnderFreeName", () => {
	it("gives a taken name the next free suffix and never overwrites", async () => {
		const vault = new MemoryActionVault();
		const paths = [];
		for (const text of ["one", "two", "three"]) paths.push(await createUnderFreeName(vault, "A2A/groups/x/outbox", "note.md", text));
		expect(paths).toEqual(["A2A/groups/x/outbox/note.md", "A2A/groups/x/outbox/note-1.md", "A2A/groups/x/outbox/note-2.md"]);
		expect(paths.map((p) => vault.readRaw(p))).toEqual(["one", "two", "three"]);
	});
});

/** A request the router rejected as GROUP_NOT_FOUND, as it sits in the dead-letter folder. */
function deadLetter(vault: MemoryActionVault, path = "A2A/dead-letter/dead.md"): string {
	const message = buildRequest({ from: BACKEND, to: "99-nowhere", type: "query", question: "Anyone?" }, NOW - 60_000);
	const text = updateFrontmatterText(serialiseMessage(message), (fm) => stampDead(fm, "GROUP_NOT_FOUND", 'group "99-nowhere" is not in the registry', NOW - 30_000));
	vault.writeRaw(path, text);
	return text;
}

describe("retrying a dead letter", () => {
	it("offers the failing target group, and checks the correction as the router would", () => {
		const ctx = routingContext();
		const dl = readDeadLetter("A2A/dead-letter/dead.md", deadLetter(new MemoryActionVault()));
		expect(notRetryable(dl)).toBeNull();
		expect(correctableFields(ctx, dl)).toEqual(["target_group"]);
		expect(checkRetry(ctx, dl, {}).errors.target_group).toContain('group "99-nowhere" is not in the registry');
		expect(checkRetry(ctx, dl, { target_group: FRONTEND })).toEqual({ errors: {}, sender: BACKEND });
	});

	it("puts it back into the sender's outbox without the router's stamps, under a free name", async () => {
		const vault = new MemoryActionVault();
		const dl = readDeadLetter("A2A/dead-letter/dead.md", deadLetter(vault));
		vault.writeRaw(`A2A/groups/${BACKEND}/outbox/dead.md`, "a note with the same name");
		const ctx = { layout: routingContext().layout };
		const path = await requeue(vault, ctx, dl, { target_group: FRONTEND }, BACKEND, NOW);
		expect(path).toMatch(new RegExp(`^A2A/groups/${BACKEND}/outbox/dead-[0-9a-z]{1,8}\\.md$`));
		const fm = readFrontmatter(vault.readRaw(path) ?? "") ?? {};
		expect(fm).toMatchObject({ target_group: FRONTEND, source_group: BACKEND, retry_count: 1, retried_at: "2026-12-01T10:00:00.000Z" });
		for (const stamp of ["state", "dead_at", "error_code", "error_message"]) expect(fm).not.toHaveProperty(stamp);
		expect(vault.readRaw("A2A/dead-letter/dead.md")).toBeUndefined();
	});

	it("a request to a remote group that timed out goes back without what the forwarder stamped (its task, its re-send)", async () => {
		const vault = new MemoryActionVault();
		const message = buildRequest({ from: BACKEND, to: FRONTEND, type: "query", question: "Anyone?" }, NOW - 60_000);
		const forwarded = updateFrontmatterText(serialiseMessage(message), (fm) => {
			Object.assign(fm, { state: "forwarded", forwarded_at: "2026-12-01T09:59:10.000Z", remote_task_id: "task-1", resent_attempt: 1 });
			stampDead(fm, "TIMEOUT", "no answer in time", NOW - 30_000);
		});
		vault.writeRaw("A2A/dead-letter/remote.md", forwarded);
		const dl = readDeadLetter("A2A/dead-letter/remote.md", forwarded);
		const path = await requeue(vault, { layout: routingContext().layout }, dl, {}, BACKEND, NOW);
		const fm = readFrontmatter(vault.readRaw(path) ?? "") ?? {};
		for (const stamp of ["state", "forwarded_at", "remote_task_id", "resent_attempt", "dead_at", "error_code"]) expect(fm, stamp).not.toHaveProperty(stamp);
	});

	it("restores a quarantined note's original text, and refuses one that does not parse", () => {
		const original = "---\nkind: request\nsource_group: [unclosed\n---\nbody\n";
		const quarantined = readDeadLetter("A2A/dead-letter/q.md", quarantineText(original, { error_code: "INVALID_MESSAGE", error_message: "bad YAML" }));
		expect(quarantined).toMatchObject({ quarantined: true, base: original, errorCode: "INVALID_MESSAGE" });
		expect(notRetryable(quarantined)).toMatch(/^This dead letter \(INVALID_MESSAGE: bad YAML\) cannot be retried as it is: .+\. Fix the original text below the router's block, then retry it again\.$/);
	});
});
