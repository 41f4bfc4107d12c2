import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BOX } from "../helpers/temp-vault";
import { useMcpHarness } from "../helpers/mcp-harness";

// Issue 27, finding 3, over MCP: a running `a2a mcp` checks its outbox at every send_request. Swapped
// for a symbolic link to a folder elsewhere after a first send, the next send_request is refused with
// the reason, and nothing is written outside the vault.

const A = "10-backend-group";
const B = "20-frontend-group";
const h = useMcpHarness();
let outside: string;

beforeEach(async () => {
	outside = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-outside-"));
});
afterEach(async () => {
	await fs.rm(outside, { recursive: true, force: true });
});

describe("a2a mcp checks its outbox at every send_request", () => {
	it("an outbox swapped for a link while the server runs: send_request is refused, nothing lands outside the vault", async () => {
		const vault = await h.vault();
		const a = await h.agent(vault, A);
		await a.ok("send_request", { to: B, type: "query", question: "First?" });
		const outbox = path.join(vault.dir, BOX(A, "outbox"));
		await fs.rename(outbox, `${outbox}-away`);
		await fs.symlink(outside, outbox);
		const second = await a.call("send_request", { to: B, type: "query", question: "Second?" });
		expect(second.isError).toBe(true);
		expect(JSON.stringify(second.content)).toContain(`${BOX(A, "outbox")} leads to`);
		expect(JSON.stringify(second.content)).toContain("outside the vault");
		expect(await fs.readdir(outside)).toEqual([]);
	});
});
