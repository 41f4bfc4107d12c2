import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { sendRequest } from "../../src/actions/send-request";
import { Router } from "../../src/router/router";
import { recordingPort } from "../helpers/port-calls";
import { BOX, REGISTRY, a2a, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// Issue 29, the agents' commands on a long history. `a2a send` (and MCP send_request) checks a
// request as the router will: a request that starts a conversation gets ids made at that moment,
// which no archived note can hold, so its check reads no history; one that continues a conversation
// reads what it needs to find its parent, as before. `a2a status` counts the archives from their
// listings. Work is counted, never timed.

const A = "10-backend-group";
const B = "20-frontend-group";
const ARCHIVED = 120;

let v: TempVault;
beforeEach(async () => {
	v = await makeTempVault("a2a-send-history-");
	await v.write("A2A/registry.yaml", REGISTRY);
	await a2a(v.dir, "init");
	for (let i = 0; i < ARCHIVED; i++) {
		await v.write(`${BOX(B, "archive")}/2026-11/old ${i}.md`, requestNote({ message_id: `old-${i}`, trace_id: `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000`, source_group: A, target_group: B, state: "answered", delivered_at: "2026-11-01T00:00:00Z" }));
	}
});
afterEach(() => v.cleanup());

async function sendWith(input: Partial<Parameters<typeof sendRequest>[1]>) {
	const { port, log } = recordingPort(new NodeVault(v.dir));
	const router = new Router(port);
	await router.loadRegistry();
	const sent = await sendRequest(router, { from: A, to: B, type: "query", question: "Status?", ...input });
	const history = log.filter((call) => call.includes("/archive"));
	return { sent, history };
}

describe("the agents' commands on a long history", () => {
	it("a request that starts a conversation lists and reads no archive, and lands in its outbox", async () => {
		const { sent, history } = await sendWith({});
		expect(history).toEqual([]);
		expect(sent.path.startsWith(`${BOX(A, "outbox")}/`)).toBe(true);
		expect(await v.read(sent.path)).toContain(`message_id: ${sent.message_id}`);
	});

	it("a request that continues an archived conversation finds its parent in the archive, as before", async () => {
		const { sent, history } = await sendWith({ from: B, to: "30-devops-group", parentId: "old-7" });
		expect(history.length).toBeGreaterThan(0);
		expect([sent.trace_id, sent.parent_id, sent.hop_count]).toEqual(["00000007-0000-4000-8000-000000000000", "old-7", 1]);
	});

	it("a2a status counts every archive (its month folders and a flat archive alike) and the dead-letter folder, leaving out what is no message", async () => {
		await v.write(`${BOX(B, "archive")}/flat one.md`, requestNote({ message_id: "flat-1", target_group: B, state: "answered", delivered_at: "2026-10-01T00:00:00Z" }));
		await v.write(`${BOX(B, "archive")}/2026-11/.hidden.md`, "not a message");
		await v.write(`${BOX(B, "archive")}/2026-11/picture.png`, "not a note");
		await v.write("A2A/dead-letter/dead one.md", requestNote({ message_id: "dead-1", target_group: B, state: "dead" }));
		const status = await a2a(v.dir, "status", "--json");
		expect(status.code, status.stderr.join("\n")).toBe(0);
		const rows = status.json as { type: string; group?: string; archive?: number; dead_letters?: number }[];
		expect(rows.find((r) => r.type === "group" && r.group === B)?.archive).toBe(ARCHIVED + 1);
		expect(rows.find((r) => r.type === "group" && r.group === A)?.archive).toBe(0);
		expect(rows.find((r) => r.type === "summary")?.dead_letters).toBe(1);
	});
});
