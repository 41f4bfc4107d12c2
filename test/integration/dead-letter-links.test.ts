import { afterEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { splitNote } from "../../src/core/frontmatter";
import { Router } from "../../src/router/router";
import { BOX, REGISTRY, makeTempVault, requestNote } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// An error or timeout response links its dead letter by name ([[name]]), and Obsidian opens the
// note of that name. The dead-letter folder may already hold a note of the same name (an older
// dead letter): the new one then gets the next of its names, and the response must name that one.

let v: TempVault | undefined;
afterEach(async () => {
	await v?.cleanup();
	v = undefined;
});

const OLD_DEAD_LETTER = "---\nkind: request\nmessage_id: old-1\nsource_group: 10-backend-group\ntarget_group: 30-devops-group\nstate: dead\nerror_code: MAX_HOPS_EXCEEDED\n---\n## Question\nOld\n";

/** The dead-letter link of the router's response in the sender's inbox. */
async function responseLink(vault: TempVault): Promise<string> {
	const [response] = (await vault.files(BOX("10-backend-group", "inbox"))).filter((f) => f.includes("/error-") || f.includes("/timeout-"));
	expect(response, "the router's response").toBeDefined();
	return /## Dead letter\n+(.*)/.exec(splitNote(await vault.read(response)).body)?.[1] ?? "";
}

describe("the dead letter a router response links", () => {
	it("is the rejected note's, also when an older dead letter has its name", async () => {
		v = await makeTempVault();
		await v.write("A2A/registry.yaml", REGISTRY);
		await v.write("A2A/dead-letter/ask.md", OLD_DEAD_LETTER);
		await v.write(`${BOX("10-backend-group", "outbox")}/ask.md`, requestNote({ message_id: "new-1", target_group: "99-nowhere" }));
		const router = new Router(new NodeVault(v.dir));
		await router.loadRegistry();
		const report = await router.pass();
		const rejected = report.decisions.find((d) => d.outcome === "rejected");
		expect(rejected?.path).toBe("A2A/dead-letter/ask-new1.md");
		expect(await responseLink(v)).toBe("[[ask-new1]]");
		expect(await v.read("A2A/dead-letter/ask.md")).toBe(OLD_DEAD_LETTER);
	});

	it("is the timed-out request's, also when an older dead letter has its name", async () => {
		v = await makeTempVault();
		await v.write("A2A/registry.yaml", REGISTRY.replace(/retry_attempts: \d+/, "retry_attempts: 0"));
		await v.write("A2A/dead-letter/ask.md", OLD_DEAD_LETTER);
		let now = Date.now();
		await v.write(`${BOX("10-backend-group", "outbox")}/ask.md`, requestNote({ message_id: "new-2", timeout_seconds: 1 }));
		const router = new Router(new NodeVault(v.dir), { clock: () => now });
		await router.loadRegistry();
		expect((await router.pass()).decisions.map((d) => d.outcome)).toEqual(["delivered"]);
		now += 5_000;
		const timedOut = (await router.pass()).decisions.find((d) => d.outcome === "timed_out");
		expect(timedOut?.path).toBe("A2A/dead-letter/ask-new2.md");
		expect(await responseLink(v)).toBe("[[ask-new2]]");
	});
});
