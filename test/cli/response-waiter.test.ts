import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { waitForOutcome } from "../../node/response-waiter";
import { findRequest } from "../../src/router/message-lookup";
import { Router } from "../../src/router/router";
import { BOX, REGISTRY, a2a, makeTempVault } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// How `a2a wait` and `wait_for_response` sleep: woken by the file system's change events on the
// requester's inbox (not by polling: a listing every few seconds is the only regular work), and
// still correct where a folder cannot be watched. Asserted by counting the waiter's work.

const BACKEND = "10-backend-group";
const FRONTEND = "20-frontend-group";

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault();
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
});
afterEach(() => v.cleanup());

/** A request from BACKEND delivered to FRONTEND, and a router (reader only) over a port that counts folder listings. */
async function delivered(): Promise<{ id: string; router: Router; listings: string[] }> {
	const sent = await a2a(v.dir, "send", "--from", BACKEND, "--to", FRONTEND, "--type", "query", "--question", "Q?", "--json");
	expect((await a2a(v.dir, "route")).code).toBe(0);
	const vault = new NodeVault(v.dir);
	const listings: string[] = [];
	const list = vault.list.bind(vault);
	vault.list = (folder: string) => {
		listings.push(folder);
		return list(folder);
	};
	const router = new Router(vault);
	await router.loadRegistry();
	return { id: sent.json[0].message_id as string, router, listings };
}

async function answer(id: string): Promise<void> {
	expect((await a2a(v.dir, "reply", "--message", id, "--status", "success", "--answer", "A")).code).toBe(0);
	expect((await a2a(v.dir, "route")).code).toBe(0);
}

const abs = (p: string) => path.join(v.dir, ...p.split("/"));

describe("waiting for a response", () => {
	it("is woken by the delivery itself: no listing after the first one while the slow check is far off", async () => {
		const { id, router, listings } = await delivered();
		const request = await findRequest(router, id);
		listings.length = 0;
		const waiting = waitForOutcome(router, request, { timeoutMs: 20_000, pollMs: 60_000, abs });
		await answer(id);
		const { outcome, counts } = await waiting;
		expect(outcome.state).toBe("answered");
		expect(outcome.response?.inReplyTo).toBe(id);
		expect(counts.watched).toBe(true);
		expect(counts.events).toBeGreaterThan(0);
		// One listing of the two folders at the start; the answer came through a change event.
		expect(counts.listings).toBe(1);
		expect(listings.sort()).toEqual(["A2A/dead-letter", BOX(BACKEND, "inbox")]);
	});

	it("does almost nothing while nothing changes: a listing per slow check, no read", async () => {
		const { id, router } = await delivered();
		const request = await findRequest(router, id);
		const { outcome, counts } = await waitForOutcome(router, request, { timeoutMs: 1200, pollMs: 500, abs });
		expect(outcome.state).toBe("pending");
		expect(counts.reads).toBe(0);
		expect(counts.events).toBe(0);
		// The first listing, then one each 500 ms: at most 4 in 1.2 s.
		expect(counts.listings).toBeGreaterThanOrEqual(2);
		expect(counts.listings).toBeLessThanOrEqual(4);
	});

	it("falls back to listing the folders when one cannot be watched, and still sees the answer", async () => {
		const { id, router } = await delivered();
		const request = await findRequest(router, id);
		// The requester's inbox does not exist yet: it cannot be watched until the router makes it.
		await fs.rm(abs(BOX(BACKEND, "inbox")), { recursive: true });
		const waiting = waitForOutcome(router, request, { timeoutMs: 20_000, pollMs: 60_000, fallbackPollMs: 50, abs });
		await answer(id);
		const { outcome, counts } = await waiting;
		expect(outcome.state).toBe("answered");
		expect(counts.watched).toBe(false);
		expect(counts.listings).toBeGreaterThan(1);
	});

	it("stops when its caller gives up (an MCP client's cancel)", async () => {
		const { id, router } = await delivered();
		const request = await findRequest(router, id);
		const controller = new AbortController();
		const waiting = waitForOutcome(router, request, { timeoutMs: 60_000, signal: controller.signal, abs });
		setTimeout(() => controller.abort(), 50);
		const { outcome } = await waiting;
		expect(outcome.state).toBe("pending");
	});
});
