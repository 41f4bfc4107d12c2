import { describe, expect, it } from "vitest";
import { ignoreReason } from "../../src/core/ignore";

// Protocol rule 1: files that are never routed and never deleted, with the reason shown to users.

const OUTBOX = "A2A/groups/10-backend-group/outbox";

describe("ignoreReason", () => {
	it.each([
		[`${OUTBOX}/.hidden.md`, "a dot-file"],
		[`${OUTBOX}/.DS_Store`, "a dot-file"],
		[`A2A/.trash/groups/g/outbox/m.md`, "inside a dot-folder"],
		[`${OUTBOX}/.sync/m.md`, "inside a dot-folder"],
		[`.obsidian/plugins/m.md`, "inside a dot-folder"],
		[`${OUTBOX}/m.sync-conflict-20260115-103015-ABCDEF.md`, "a sync-conflict copy"],
		[`${OUTBOX}/m (Conflicted copy 2026-01-15).md`, "a sync-conflict copy"],
		[`${OUTBOX}/m (conflicted copy).md`, "a sync-conflict copy"],
		[`${OUTBOX}/m (conflict 1).md`, "a sync-conflict copy"],
		[`${OUTBOX}/m (Conflict).md`, "a sync-conflict copy"],
		[`${OUTBOX}/m.lock`, "a lock or temporary file"],
		[`${OUTBOX}/m.md.lock`, "a lock or temporary file"],
		[`${OUTBOX}/m.tmp`, "a lock or temporary file"],
		[`${OUTBOX}/m.md.TMP`, "a lock or temporary file"],
		[`${OUTBOX}/m.part`, "a lock or temporary file"],
		[`${OUTBOX}/~$message.md`, "a lock file of an editor"],
	])("ignores %s as %s", (path, reason) => {
		expect(ignoreReason(path)).toBe(reason);
	});

	it.each([
		`${OUTBOX}/request.md`,
		`${OUTBOX}/2026-01-15 10.30 request.md`,
		`${OUTBOX}/request.yaml`,
		`${OUTBOX}/my.request.v2.md`,
		`${OUTBOX}/conflicts-report.md`,
		`${OUTBOX}/lock-the-door.md`,
		`${OUTBOX}/temp.md`,
		`${OUTBOX}/tmp notes.md`,
		`${OUTBOX}/part 2.md`,
		`${OUTBOX}/a~$b.md`,
		`${OUTBOX}/sync-conflict.md`,
		`${OUTBOX}/why (concluded).md`,
		`skills/20-frontend-group/outbox/m.md`,
	])("routes the ordinary name %s", (path) => {
		expect(ignoreReason(path)).toBeNull();
	});
});
