import { describe, expect, it } from "vitest";
import { asSentence, groupReason, unknownGroupReason } from "../../src/core/group-reasons";
import { statusRank } from "../../src/core/labels";
import { AGENT_STATUSES } from "../../src/core/lifecycle";

// The single definitions the plugin and the CLI share: the order statuses are listed in, the
// words for an unusable group, the names a new note may take.

describe("statusRank", () => {
	it("ranks every status the lifecycle knows, each in its own place, live before finished, unknown last", () => {
		const known: string[] = [...AGENT_STATUSES];
		const ranks = known.map(statusRank);
		expect(new Set(ranks).size).toBe(known.length);
		for (const rank of ranks) expect(rank).toBeLessThan(statusRank("paused"));
		expect(known.sort((a, b) => statusRank(a) - statusRank(b))).toEqual(["running", "active", "spawned", "failed", "error", "completed", "terminated"]);
	});
});

describe("group reasons", () => {
	it("says why a group id cannot be used, listing the known groups", () => {
		expect(groupReason("a", ["a", "b"])).toBeNull();
		expect(groupReason("c", ["a", "b"])).toBe('group "c" is not in the registry (known groups: a, b)');
		expect(unknownGroupReason("c", [])).toBe('group "c" is not in the registry (known groups: none)');
		expect(groupReason("../x", ["a"])).toBe('"../x" is not a group id: use letters, digits, ".", "_" or "-"');
		expect(asSentence(unknownGroupReason("c", []))).toBe('Group "c" is not in the registry (known groups: none).');
	});
});

