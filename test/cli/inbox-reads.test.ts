import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { listInbox } from "../../src/router/inbox-listing";
import { Router } from "../../src/router/router";
import { BOX, REGISTRY, a2a, makeTempVault } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// `a2a inbox` and `list_inbox` read one group's boxes, never the rest of the vault: their cost does
// not grow with the archives, the dead letters or the other groups' traffic.

const BACKEND = "10-backend-group";
const FRONTEND = "20-frontend-group";
const DEVOPS = "30-devops-group";

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault();
	await v.write("A2A/registry.yaml", REGISTRY);
	expect((await a2a(v.dir, "init")).code).toBe(0);
});
afterEach(() => v.cleanup());

describe("listing a group's inbox", () => {
	it("lists and reads only that group's inbox and outbox", async () => {
		const ask = async (from: string, to: string, q: string) => (await a2a(v.dir, "send", "--from", from, "--to", to, "--type", "query", "--question", q, "--json")).json[0].message_id as string;
		// History and other groups' traffic: answered requests in archives, a dead letter, requests for DEVOPS.
		for (let i = 0; i < 5; i++) await ask(BACKEND, DEVOPS, `devops ${i}?`);
		const answered = await ask(DEVOPS, FRONTEND, "answered?");
		await a2a(v.dir, "send", "--from", BACKEND, "--to", FRONTEND, "--type", "query", "--question", "hop", "--trace", "0f0f0f0f-1111-4222-8333-444444444444", "--hop", "4");
		await v.write(`${BOX(DEVOPS, "outbox")}/broken.md`, "---\nnot: [closed\n---\n");
		await a2a(v.dir, "route");
		expect(await v.files("A2A/dead-letter")).toHaveLength(1);
		await a2a(v.dir, "reply", "--message", answered, "--status", "success", "--answer", "yes");
		await a2a(v.dir, "route");
		const waiting = await ask(BACKEND, FRONTEND, "waiting?");
		await a2a(v.dir, "route");

		const vault = new NodeVault(v.dir);
		const touched: string[] = [];
		for (const method of ["list", "read", "listRecursive", "stat"] as const) {
			const original = (vault[method] as (...args: unknown[]) => Promise<unknown>).bind(vault);
			(vault as unknown as Record<string, unknown>)[method] = (p: string, ...rest: unknown[]) => {
				touched.push(p);
				return original(p, ...rest);
			};
		}
		const router = new Router(vault);
		await router.loadRegistry();
		touched.length = 0;
		const listing = await listInbox(router, FRONTEND);
		// The request still waiting, and the one of hop 4; not the answered one.
		expect(listing.requests).toHaveLength(2);
		expect(listing.requests.map((r) => r.message_id)).toContain(waiting);
		expect(listing.requests.map((r) => r.message_id)).not.toContain(answered);
		expect(touched.length).toBeGreaterThan(0);
		const own = [BOX(FRONTEND, "inbox"), BOX(FRONTEND, "outbox")];
		expect(touched.filter((p) => !own.some((folder) => p === folder || p.startsWith(`${folder}/`)))).toEqual([]);
	});
});
