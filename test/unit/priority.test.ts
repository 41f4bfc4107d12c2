import { describe, expect, it } from "vitest";
import { sortForRouting } from "../../src/core/priority";
import type { Orderable } from "../../src/core/priority";

// Routing order (protocol section 4): high > medium > low, then the oldest created first.

const order = (items: Orderable[]) => sortForRouting(items).map((i) => i.path);

describe("sortForRouting", () => {
	it("routes high before medium before low", () => {
		expect(
			order([
				{ path: "low", priority: "low", created: "2026-01-01T00:00:00Z" },
				{ path: "medium", priority: "medium", created: "2026-01-01T00:00:00Z" },
				{ path: "high", priority: "high", created: "2026-01-02T00:00:00Z" },
			]),
		).toEqual(["high", "medium", "low"]);
	});

	it("treats a missing or unknown priority as medium", () => {
		expect(
			order([
				{ path: "low", priority: "low", created: "2026-01-01T00:00:00Z" },
				{ path: "none", created: "2026-01-03T00:00:00Z" },
				{ path: "urgent", priority: "urgent", created: "2026-01-02T00:00:00Z" },
				{ path: "high", priority: "high", created: "2026-01-04T00:00:00Z" },
			]),
		).toEqual(["high", "urgent", "none", "low"]);
	});

	it("routes the oldest created first within a priority, comparing instants not text", () => {
		expect(
			order([
				{ path: "c", priority: "high", created: "2026-01-15T12:00:00Z" },
				{ path: "a", priority: "high", created: "2026-01-15T10:00:00Z" },
				{ path: "b-offset", priority: "high", created: "2026-01-15T12:30:00+01:00" },
			]),
		).toEqual(["a", "b-offset", "c"]);
	});

	it("routes notes without a (usable) created last within their priority", () => {
		expect(
			order([
				{ path: "no-date", priority: "medium" },
				{ path: "bad-date", priority: "medium", created: "someday" },
				{ path: "dated", priority: "medium", created: "2030-01-01T00:00:00Z" },
				{ path: "low-dated", priority: "low", created: "2000-01-01T00:00:00Z" },
			]),
		).toEqual(["dated", "bad-date", "no-date", "low-dated"]);
	});

	it("breaks remaining ties by path so the order is stable", () => {
		expect(order([{ path: "b" }, { path: "a" }, { path: "c" }])).toEqual(["a", "b", "c"]);
		expect(order([{ path: "a", priority: "low" }, { path: "a", priority: "low" }])).toEqual(["a", "a"]);
	});
});
