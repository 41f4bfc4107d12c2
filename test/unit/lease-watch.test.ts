import { describe, expect, it } from "vitest";
import { LeaseWatch } from "../../src/ui/view/lease-watch";
import type { RouterLine } from "../../src/ui/view/flow-state";

// Two devices that both believe they route make the lease change hands again and again: the
// sidebar warns when it sees the holder change three times within ten minutes.

const held = (device: string | null): RouterLine => ({ held: false, standby: "", holderDevice: device, holderName: device });

describe("LeaseWatch", () => {
	it("warns after three changes of holder within ten minutes, and stops warning once they are older", () => {
		const watch = new LeaseWatch();
		const min = 60_000;
		expect(watch.observe(held("laptop"), 0)).toBe(false);
		expect(watch.observe(held("laptop"), 1 * min)).toBe(false);
		expect(watch.observe(held("phone"), 2 * min)).toBe(false);
		expect(watch.observe(held("laptop"), 3 * min)).toBe(false);
		expect(watch.observe(held("phone"), 4 * min)).toBe(true);
		expect(watch.observe(held("phone"), 13 * min)).toBe(false);
	});

	it("does not count a released lease or a single hand-over", () => {
		const watch = new LeaseWatch();
		expect(watch.observe(held("phone"), 0)).toBe(false);
		expect(watch.observe(held(null), 1000)).toBe(false);
		expect(watch.observe(held("desktop"), 2000)).toBe(false);
		expect(watch.observe(held("desktop"), 3000)).toBe(false);
	});
});
