import { afterEach, describe, expect, it, vi } from "vitest";
import { Gateway } from "../../servers/a2a/gateway";
import { NodeVault } from "../../node/node-vault";
import { Router } from "../../src/router/router";
import { failReads } from "../helpers/failing-reads";
import { ARCHIVED, BOX, requestNote } from "../helpers/temp-vault";
import { A_GROUP, until, useHarness } from "./harness";

// `a2a serve` runs no routing pass, yet its index reads the notes the router would: a note that
// cannot be read is said once (the pass's own words), while it stays so, as `a2a route` says it.

const h = useHarness();
afterEach(() => vi.restoreAllMocks());

const said = (path: string) => `${path} cannot be read (permission denied, EACCES): the router goes on without what it says, and reads it again when it next looks at it`;

describe("a2a serve and a note that cannot be read", () => {
	it("says it once at start and once when another appears, reads them again at its checks without saying them again, and goes on serving", async () => {
		const v = await h.vault();
		const archived = `${ARCHIVED(A_GROUP)}/old.md`;
		const inbox = `${BOX(A_GROUP, "inbox")}/new.md`;
		await v.write(archived, requestNote({ message_id: "old-1", target_group: A_GROUP, source_group: "20-frontend-group", state: "answered" }));
		const failing = failReads(new Set([archived, inbox]), "EACCES");
		const router = new Router(new NodeVault(v.dir));
		await router.loadRegistry();
		const warnings: string[] = [];
		// The slow check every 50 ms; every tenth of them reads the history again.
		const gateway = new Gateway(router, new NodeVault(v.dir), { intervalMs: 50, onError: (e) => warnings.push(`error: ${String(e)}`), onWarning: (line) => warnings.push(line) });
		try {
			await gateway.start();
			expect(warnings).toEqual([said(archived)]);
			await v.write(inbox, requestNote({ message_id: "new-1", target_group: A_GROUP, source_group: "20-frontend-group" }));
			await until("the new note said", async () => warnings.length >= 2);
			await until("both read again", async () => failing.attempts(archived) >= 3 && failing.attempts(inbox) >= 3);
			expect(warnings).toEqual([said(archived), said(inbox)]);
			expect(gateway.servedGroups().map((g) => g.id)).toContain(A_GROUP);
		} finally {
			await gateway.stop();
		}
	});
});
