import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { isStale, readAgent } from "../../src/core/agent";
import { orderFields, sortForRouting } from "../../src/core/priority";
import { stampDeliveredResponse } from "../../src/core/stamps";
import { isIsoTime, normalTime, parseTime } from "../../src/core/time";
import { requestFieldProblem } from "../../src/core/validate";

// Item 13 of "Trust the post office": times without a zone are UTC (contract v2), whatever the zone
// of the machine that reads them. Every check runs under three zones (Node applies a change of
// process.env.TZ at once).

const ZONES = ["UTC", "America/New_York", "Asia/Tokyo"];
const original = process.env.TZ;
afterAll(() => {
	process.env.TZ = original;
});

function inEachZone(check: (zone: string) => void): void {
	for (const zone of ZONES) {
		process.env.TZ = zone;
		check(zone);
	}
}

describe("seconds", () => {
	it("refuses a 60th second on every day (it was read as the next minute, except on the last day of a year)", () => {
		expect(isIsoTime("2026-01-15T12:00:60Z")).toBe(false);
		expect(isIsoTime("2026-12-31T23:59:60Z")).toBe(false);
		expect(isIsoTime("2026-01-15T12:00:59.999Z")).toBe(true);
	});
});

describe("item 13: times", () => {
	it("reads a zone-less time as UTC, and PyYAML's space-separated form with its offset, in every zone", () => {
		inEachZone((zone) => {
			expect(parseTime("2026-01-15T23:59:00"), zone).toBe(Date.UTC(2026, 0, 15, 23, 59));
			expect(parseTime("2026-01-15 23:59:00"), zone).toBe(Date.UTC(2026, 0, 15, 23, 59));
			expect(parseTime("2026-01-15 23:59:00+00:00"), zone).toBe(Date.UTC(2026, 0, 15, 23, 59));
			expect(parseTime("2026-01-16T08:59:00+09:00"), zone).toBe(Date.UTC(2026, 0, 15, 23, 59));
			expect(parseTime("2026-01-15"), zone).toBe(Date.UTC(2026, 0, 15));
			expect(parseTime("2026-02-30T10:00:00Z"), zone).toBeNaN();
			// The router's own form, read the quick way, gives what the full rule gives.
			expect(parseTime("2026-01-15T23:59:00.000Z"), zone).toBe(Date.UTC(2026, 0, 15, 23, 59));
			expect(parseTime("2026-02-30T10:00:00.000Z"), zone).toBeNaN();
			expect(parseTime("2026-01-15T24:00:00.000Z"), zone).toBeNaN();
			expect(isIsoTime("yesterday"), zone).toBe(false);
		});
	});

	it("gives the same processing_time_ms on a router in any zone, for an answer written without a zone", () => {
		const results = new Set<unknown>();
		inEachZone(() => {
			const fm: Record<string, unknown> = { created: "2026-01-15 10:00:05" };
			stampDeliveredResponse(fm, { target: "a", now: Date.UTC(2026, 0, 15, 10, 0, 6), request: { messageId: "q", deliveredAt: "2026-01-15T10:00:00.000Z" }, late: false, fallbackId: "r" });
			results.add(fm.processing_time_ms);
		});
		expect([...results]).toEqual([5000]);
	});

	it("shows an agent that just updated (a zone-less time) as fresh in every zone", () => {
		const now = Date.UTC(2026, 0, 15, 10, 1);
		inEachZone((zone) => {
			const agent = readAgent("A2A/agents/a.md", { status: "running", updated: "2026-01-15 10:00:30" }, "");
			expect(agent && isStale(agent, now, 5 * 60_000), zone).toBe(false);
		});
	});

	it("orders PyYAML's `2026-01-15 23:59:00+00:00` by its whole time, not cut at the space", () => {
		inEachZone((zone) => {
			// The later note has the earlier name: cut at the space, both times would be equal and the names decide.
			const late = { path: "a.md", ...orderFields("---\ncreated: 2026-01-15 23:59:00+00:00\n---\n") };
			const early = { path: "b.md", ...orderFields("---\ncreated: 2026-01-15 00:00:01+00:00\n---\n") };
			expect(late.created, zone).toBe("2026-01-15 23:59:00+00:00");
			expect(sortForRouting([late, early]).map((n) => n.path), zone).toEqual(["b.md", "a.md"]);
		});
	});

	it("reads the router's own form the quick way exactly as the full rule reads the same time with an offset", () => {
		const two = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, "0"));
		const shaped = fc
			.tuple(fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, "0")), two, two, two, two, two, fc.integer({ min: 0, max: 999 }).map((n) => String(n).padStart(3, "0")))
			.map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
		const real = fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }).map((d) => d.toISOString());
		fc.assert(
			fc.property(fc.oneof(shaped, real), (text) => {
				const slow = parseTime(text.replace(/Z$/, "+00:00"));
				expect(Object.is(parseTime(text), slow) || (Number.isNaN(parseTime(text)) && Number.isNaN(slow)), text).toBe(true);
			}),
			{ numRuns: 5000 },
		);
	});
});

describe("issue 27, finding 8: fractions never roll over, offsets stay within a day", () => {
	it("keeps a fraction of any length without rounding into the next second, minute or day", () => {
		inEachZone((zone) => {
			expect(parseTime("2026-01-15T23:59:59.9995Z"), zone).toBe(Date.UTC(2026, 0, 15, 23, 59, 59, 999));
			expect(parseTime("2026-01-15T23:59:59.9999999Z"), zone).toBe(Date.UTC(2026, 0, 15, 23, 59, 59, 999));
			expect(parseTime("2026-12-31 23:59:59.99999999999+00:00"), zone).toBe(Date.UTC(2026, 11, 31, 23, 59, 59, 999));
			expect(parseTime("2026-01-15T10:00:00.5Z"), zone).toBe(Date.UTC(2026, 0, 15, 10, 0, 0, 500));
			expect(parseTime("2026-01-15T10:00:00.1234Z"), zone).toBe(Date.UTC(2026, 0, 15, 10, 0, 0, 123));
			expect(parseTime("2026-01-15T10:00:00.57Z"), zone).toBe(Date.UTC(2026, 0, 15, 10, 0, 0, 570));
		});
		expect(requestFieldProblem("created", "2026-01-15T23:59:59.9995Z")).toBeNull();
		expect(normalTime("2026-01-15T23:59:59.9999999Z")).toBe("2026-01-15T23:59:59.999Z");
	});

	it("takes offsets up to ±23:59 and refuses anything beyond (+99:99, -24:00, +23:60)", () => {
		const noon = Date.UTC(2026, 0, 15, 12);
		expect(parseTime("2026-01-15T12:00:00+14:00")).toBe(noon - 14 * 3_600_000);
		expect(parseTime("2026-01-15T12:00:00+23:59")).toBe(noon - (23 * 60 + 59) * 60_000);
		expect(parseTime("2026-01-15T12:00:00-23:59")).toBe(noon + (23 * 60 + 59) * 60_000);
		expect(parseTime("2026-01-15T12:00:00-0530")).toBe(noon + 330 * 60_000);
		expect(parseTime("2026-01-15T12:00:00+05")).toBe(noon - 5 * 3_600_000);
		for (const zone of ["+99:99", "-24:00", "+24:00", "+23:60", "-00:60", "+9999", "+24"]) {
			expect(parseTime(`2026-01-15T12:00:00${zone}`), zone).toBeNaN();
			expect(requestFieldProblem("created", `2026-01-15T12:00:00${zone}`), zone).toMatch(/ISO 8601/);
		}
	});
});
