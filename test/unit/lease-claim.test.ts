import { describe, expect, it } from "vitest";
import { leaseNoteText, parseLease } from "../../src/core/lease";
import { LeaseKeeper } from "../../src/router/lease-keeper";
import type { ChangeResult, ReadFile, VaultPort } from "../../src/router/vault-port";
import { MemoryVault } from "../helpers/memory-vault";

// Review 2, item 4: two routers that read a released lease at the same moment both took it, because
// a replace on a real disk is a check and then a rename (NodeVault), and both checks can pass before
// either rename. The port below replaces that way, with both routers between check and rename.

const LEASE = "A2A/router.md";
const T0 = Date.parse("2026-03-01T12:00:00.000Z");
const released = leaseNoteText({ device: "old", name: "a2a route on old", since: "2026-03-01T11:00:00.000Z", renewed: "2026-03-01T11:59:00.000Z", renewal: 4, yields: false, released: true });

/** A port over one MemoryVault whose replace checks, waits for `gate`, then writes (as NodeVault's check-then-rename). */
function checkThenRename(vault: MemoryVault, gate: () => Promise<void>): VaultPort {
	return new Proxy(vault, {
		get(target, key, receiver) {
			if (key !== "replace") return Reflect.get(target, key, receiver) as unknown;
			return async (path: string, text: string, expected: ReadFile): Promise<ChangeResult> => {
				const now = await target.read(path);
				if (!now || now.text !== expected.text) return now ? "changed" : "missing";
				await gate();
				target.writeRaw(path, text);
				return "done";
			};
		},
	});
}

/** The pause between check and rename: a macrotask, so that every in-memory step of the other router runs meanwhile. */
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

const keeper = (port: VaultPort, device: string, now: () => number) =>
	new LeaseKeeper(port, { path: LEASE, identity: { device, name: `a2a route on ${device}`, yields: false }, wallClock: now, monotonic: now });

describe("review 2, item 4: one router takes a free lease, also when two read it at the same moment", () => {
	it("of two routers racing for a released lease, exactly one routes; the claim file is gone afterwards", async () => {
		let now = T0;
		const vault = new MemoryVault(() => now);
		vault.writeRaw(LEASE, released);
		const a = keeper(checkThenRename(vault, pause), "device-a", () => now);
		const b = keeper(checkThenRename(vault, pause), "device-b", () => now);
		// Without the claim, both pass the check during the other's pause, and both write and route.
		const held = await Promise.all([a.ensure(), b.ensure()]);
		expect(held.filter(Boolean)).toHaveLength(1);
		const winner = held[0] ? "device-a" : "device-b";
		expect(parseLease((await vault.read(LEASE))?.text ?? null)).toMatchObject({ device: winner, released: false, renewal: 5 });
		expect([...vault.files.keys()].filter((k) => k.includes("claim"))).toEqual([]);
		// The loser keeps standing by while the winner renews.
		now += 60_000;
		expect(await (held[0] ? b : a).ensure()).toBe(false);
	});

	it("a claim another device's router left behind is cleared once stale, one this device left at once", async () => {
		let now = T0;
		const vault = new MemoryVault(() => now);
		vault.writeRaw(LEASE, released);
		vault.writeRaw("A2A/router-claim-5.tmp", "device-crashed\n", T0 - 1000);
		const a = keeper(vault, "device-a", () => now);
		expect(await a.ensure()).toBe(false);
		expect(a.state().reason).toBe("another router is taking the lease at this moment");
		now += 31_000;
		expect(await a.ensure()).toBe(true);
		expect(vault.files.has("A2A/router-claim-5.tmp")).toBe(false);
		await a.release();
		vault.writeRaw("A2A/router-claim-6.tmp", "device-a\n");
		expect(await keeper(vault, "device-a", () => now).ensure()).toBe(true);
		expect(vault.files.has("A2A/router-claim-6.tmp")).toBe(false);
	});
});
