import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { A_GROUP, GATEWAY, clientFor, send, useHarness, userMessage } from "./harness";

// Issue 27, finding 3, over A2A: a running `a2a serve` checks the gateway's outbox at every
// SendMessage. Swapped for a symbolic link to a folder elsewhere after a first call, the next call
// is refused with an error and nothing is written outside the vault.

const h = useHarness();
let outside: string;

beforeEach(async () => {
	outside = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-outside-"));
});
afterEach(async () => {
	await fs.rm(outside, { recursive: true, force: true });
});

describe("a2a serve checks the gateway's outbox at every SendMessage", () => {
	it("an outbox swapped for a link while the server runs: SendMessage fails, nothing lands outside the vault", async () => {
		const v = await h.vault();
		const served = await h.serve(v.dir);
		const client = await clientFor(served.groupUrl(A_GROUP));
		await send(client, userMessage("swap-serve-1", "first"), true);
		const outbox = path.join(v.dir, `A2A/groups/${GATEWAY}/outbox`);
		expect(await fs.readdir(outbox)).toHaveLength(1);
		await fs.rename(outbox, `${outbox}-away`);
		await fs.symlink(outside, outbox);
		const refused = await send(client, userMessage("swap-serve-2", "second"), true).then(
			() => "accepted",
			(error: unknown) => String(error),
		);
		expect(refused).toContain("outside the vault");
		expect(await fs.readdir(outside)).toEqual([]);
	});
});
