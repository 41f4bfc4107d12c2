import { describe, expect, it } from "vitest";
import { MessageIndex } from "../../src/core/message-index";
import type { IndexEntry } from "../../src/core/message-index";
import type { Router } from "../../src/router/router";
import type { GatewayOutbox } from "../../servers/a2a/gateway-outbox";
import { VaultTasks } from "../../servers/a2a/vault-tasks";

// A request the gateway sent, archived twice (a sync service kept both copies): the task stands for
// one copy, the same in the task list as in GetTask, whatever order the index holds them in.

const archived = (month: string): IndexEntry => ({
	path: `A2A/groups/10-backend-group/archive/${month}/2026-11-30T10-00-00-query-to-10-backend-group-task-1.md`,
	location: { area: "box", group: "10-backend-group", box: "archive" },
	kind: "request",
	route: [],
	messageId: "task-1",
	sourceGroup: "a2a-gateway",
});

function tasksOver(entries: IndexEntry[]): VaultTasks {
	const index = new MessageIndex();
	for (const entry of entries) index.set(entry);
	const outbox = { get: () => undefined, all: () => [] } as unknown as GatewayOutbox;
	return new VaultTasks({ index } as unknown as Router, outbox, () => "a2a-gateway");
}

describe("the gateway's task for a request archived twice", () => {
	for (const order of [["2026-12", "2026-11"], ["2026-11", "2026-12"]]) {
		it(`is the same copy in the list and in GetTask, indexed ${order.join(" then ")}`, () => {
			const tasks = tasksOver(order.map(archived));
			const listed = tasks.requests();
			expect(listed.map((e) => e.path)).toEqual([archived("2026-11").path]);
			expect(tasks.locate("task-1")?.path).toBe(archived("2026-11").path);
		});
	}
});
