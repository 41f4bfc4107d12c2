import { describe, expect, it } from "vitest";
import type { IndexEntry } from "../../src/core/message-index";
import { mermaidText, traceMermaid, traceNoteName, traceNoteText, traceSteps, traceTable } from "../../src/core/trace-diagram";

// The picture of a conversation, built from plain index entries: who talks to whom, in which
// order, and what went wrong on the way.

const A = "10-backend-group";
const B = "20-frontend-group";
const C = "30-devops-group";
const hhmm = (iso: string) => iso.slice(11, 16);

function entry(partial: Partial<IndexEntry> & Pick<IndexEntry, "path">): IndexEntry {
	return { location: { area: "box", group: B, box: "inbox" }, kind: "request", route: [], traceId: "t-1", ...partial } as IndexEntry;
}

const request = entry({ path: "A2A/groups/20/archive/q.md", messageId: "q1", sourceGroup: A, targetGroup: B, requestType: "query", priority: "high", deliveredAt: "2026-01-15T10:30:00Z", state: "answered" });
const answer = entry({ path: "A2A/groups/10/archive/a.md", kind: "response", messageId: "a1", inReplyTo: "q1", sourceGroup: B, status: "success", deliveredAt: "2026-01-15T10:31:00Z", state: "taken" });
const forward = entry({ path: "A2A/groups/30/inbox/f.md", messageId: "f1", sourceGroup: B, targetGroup: C, requestType: "task", deliveredAt: "2026-01-15T10:32:00Z", state: "timed_out", attempt: 2 });
const late = entry({ path: "A2A/groups/20/inbox/l.md", kind: "response", messageId: "l1", inReplyTo: "f1", sourceGroup: C, targetGroup: B, status: "success", deliveredAt: "2026-01-15T10:40:00Z", late: true, state: "delivered" });
const rejected = entry({ path: "A2A/dead-letter/r.md", location: { area: "dead-letter" }, messageId: "r1", sourceGroup: A, targetGroup: "99-nowhere", requestType: "task", deadAt: "2026-01-15T10:41:00Z", errorCode: "GROUP_NOT_FOUND", errorMessage: "group 99-nowhere is not in the registry", state: "dead" });

describe("traceSteps", () => {
	it("marks taken, late, timed-out, retried and rejected messages, and sends a response back to its requester", () => {
		const steps = traceSteps([request, answer, forward, late, rejected]);
		expect(steps.map((s) => [s.from, s.to, s.what, s.arrow, s.marks])).toEqual([
			[A, B, "query", "request", []],
			[B, A, "success", "response", ["taken"]],
			[B, C, "task", "request", ["timed out", "attempt 2"]],
			[C, B, "success", "response", ["late"]],
			[A, "99-nowhere", "task", "lost", ["rejected GROUP_NOT_FOUND"]],
		]);
	});

	it("leaves out notes that are neither requests nor responses", () => {
		expect(traceSteps([entry({ path: "x.md", kind: null })])).toEqual([]);
	});
});

describe("traceMermaid", () => {
	it("draws groups as lifelines in order of appearance and each message as an arrow with type, priority and time", () => {
		const text = traceMermaid([request, answer, forward, late, rejected], hhmm);
		expect(text.split("\n")).toEqual([
			"sequenceDiagram",
			`    participant g0 as ${A}`,
			`    participant g1 as ${B}`,
			`    participant g2 as ${C}`,
			"    participant g3 as 99-nowhere",
			"    g0->>g1: query · high · 10:30",
			"    g1-->>g0: success · 10:31 · taken",
			"    g1->>g2: task · 10:32 · timed out · attempt 2",
			"    Note over g2: no answer in time",
			"    g2-->>g1: success · 10:40 · late",
			"    g0-xg3: task · 10:41 · rejected GROUP_NOT_FOUND",
			"    Note over g0,g3: wrap:dead letter: group 99-nowhere is not in the registry",
		]);
	});

	it("names the router's own responses and keeps hostile text from breaking the diagram", () => {
		const hostile = entry({ path: "x.md", kind: "response", sourceGroup: "a2a-relay", targetGroup: "x;y\n<b>#1</b>", status: "timeout" });
		const text = traceMermaid([hostile], () => "");
		expect(text).toContain("participant g0 as a2a-relay (router)");
		expect(text).toContain("participant g1 as x#59;y #lt;b#gt;#35;1#lt;/b#gt;");
		expect(text.split("\n")).toHaveLength(4);
		expect(mermaidText("50%;")).toBe("50#37;#59;");
	});

	it("draws an empty trace without failing", () => {
		expect(traceMermaid([], hhmm)).toBe("sequenceDiagram\n    Note right of g0: no messages");
	});
});

describe("traceTable and the exported note", () => {
	it("lists each message with its state and marks, linking the note by name and escaping every value", () => {
		const odd = entry({ path: "A2A/groups/20/inbox/Issue #42.md", messageId: "o1", sourceGroup: A, targetGroup: B, requestType: "<img src=x>", created: "2026-01-15T10:50:00Z" });
		const table = traceTable([request, late, odd], hhmm).split("\n");
		expect(table[0]).toBe("| # | Time | From | To | Kind | Type or status | Priority | State | Marks | Note |");
		expect(table[2]).toBe(`| 1 | 10:30 | ${A} | ${B} | request | query | high | answered |  | [[q]] |`);
		expect(table[3]).toBe(`| 2 | 10:40 | ${C} | ${B} | response | success |  | delivered | late | [[l]] |`);
		expect(table[4]).toContain("&lt;img src\\=x&gt;");
		expect(table[4]).toContain("Issue \\#42.md |");
		expect(table[4]).not.toContain("[[Issue");
	});

	it("puts the diagram in a mermaid block and the table below it, with the trace id in the frontmatter", () => {
		const text = traceNoteText("t-1", [request, answer], (iso) => iso, "2026-01-15T11:00:00.000Z");
		expect(text.startsWith('---\ntrace: "t-1"\nexported: 2026-01-15T11:00:00.000Z\nmessages: 2\n---\n')).toBe(true);
		expect(text).toContain("```mermaid\nsequenceDiagram\n");
		expect(text).toContain("g0->>g1: query · high · 2026-01-15T10:30:00Z");
		expect(text.indexOf("| # | Time")).toBeGreaterThan(text.indexOf("```\n"));
		expect(traceNoteName("a1b2c3d4-e5f6/../x")).toBe("Trace a1b2c3d4-e5f6x.md");
		expect(traceNoteName("///")).toBe("Trace trace.md");
	});
});
