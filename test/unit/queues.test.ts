import fc from "fast-check";
import { expect, it } from "vitest";
import { VaultLayout } from "../../src/core/layout";
import type { Box, Location } from "../../src/core/layout";
import { MessageIndex } from "../../src/core/message-index";
import type { IndexEntry } from "../../src/core/message-index";
import { queueSummary } from "../../src/core/queues";
import { parseRegistry } from "../../src/core/registry";

// The sidebar's and a2a status's counts come from tallies the index keeps as entries come, move
// and go: they must equal a count over every entry, whatever the order of changes.

const GROUPS = ["10-a", "20-b", "30-c"];
const registry = parseRegistry(`groups:\n${GROUPS.map((g) => `  ${g}: {}`).join("\n")}\n`);
const layout = new VaultLayout("A2A", registry);
const NOW = Date.parse("2026-06-01T12:00:00.000Z");

const location = fc.oneof(
	fc.record({ area: fc.constant("box" as const), box: fc.constantFrom<Box>("inbox", "outbox", "archive"), group: fc.constantFrom(...GROUPS) }),
	fc.constant({ area: "dead-letter" as const }),
	fc.constant({ area: "other" as const }),
);
const change = fc.record({
	file: fc.integer({ min: 0, max: 15 }),
	location,
	remove: fc.boolean(),
	state: fc.constantFrom("delivered", "retrying", "answered", "forwarded", undefined),
	source: fc.constantFrom(...GROUPS, "99-gone"),
	expires: fc.constantFrom("2026-06-01T11:00:00.000Z", "2026-06-01T13:00:00.000Z"),
});

function entry(path: string, loc: Location, state: string | undefined, source: string, expires: string): IndexEntry {
	return { path, location: loc, kind: "request", state, sourceGroup: source, expiresAt: expires, deliveredAt: "2026-06-01T10:00:00.000Z", route: [] };
}

/** The same summary by walking every entry. */
function counted(entries: IndexEntry[]) {
	const groups = GROUPS.map((group) => ({ group, inbox: 0, outbox: 0, archive: 0, inFlight: 0, overdue: 0, forwarded: 0 }));
	let deadLetters = 0;
	for (const e of entries) {
		if (e.location.area === "dead-letter") deadLetters++;
		if (e.location.area !== "box") continue;
		const loc = e.location;
		const g = groups.find((q) => q.group === loc.group);
		if (g) g[loc.box]++;
		const sender = groups.find((q) => q.group === e.sourceGroup);
		// A request forwarded to a remote agent (a url: group) is in flight for its sender too.
		if (loc.box === "inbox" && g && e.state === "forwarded") g.forwarded++;
		if (loc.box === "inbox" && sender && (e.state === "delivered" || e.state === "retrying" || e.state === "forwarded")) {
			sender.inFlight++;
			if (Date.parse(e.expiresAt as string) <= NOW) sender.overdue++;
		}
	}
	return { groups, deadLetters };
}

it("counts every box, the dead letters, the requests in flight and overdue, and lists inboxes and dead letters, as a walk over every entry would", () => {
	fc.assert(
		fc.property(fc.array(change, { maxLength: 60 }), (changes) => {
			expect(layout.groupIds()).toEqual(GROUPS);
			const index = new MessageIndex();
			const files = new Map<string, IndexEntry>();
			for (const c of changes) {
				const path = `note-${c.file}.md`;
				if (c.remove) {
					index.remove(path);
					files.delete(path);
				} else {
					const e = entry(path, c.location, c.state, c.source, c.expires);
					index.set(e);
					files.set(path, e);
				}
			}
			expect(queueSummary(index, layout, NOW)).toEqual(counted([...files.values()]));
			const paths = (entries: Iterable<IndexEntry>) => [...entries].map((e) => e.path).sort();
			expect(paths(index.inboxes())).toEqual(paths([...files.values()].filter((e) => e.location.area === "box" && e.location.box === "inbox")));
			expect(paths(index.deadLetters())).toEqual(paths([...files.values()].filter((e) => e.location.area === "dead-letter")));
		}),
		{ numRuns: 300 },
	);
});
