import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HOSTILE_REASON, startRemoteAgents } from "../../test-support/a2a-remote-agents";
import type { RemoteAgentServer } from "../../test-support/a2a-remote-agents";
import { BOX, a2a } from "../helpers/temp-vault";
import type { CliResult, TempVault } from "../helpers/temp-vault";
import { useHarness } from "./harness";

// Issue 27, finding 6: text from outside reaches a person's terminal only escaped. A remote agent's
// failure text and a note's fields and body carry an OSC 52 sequence (sets the clipboard), a colour
// (CSI), a carriage return, newlines that would forge output lines and a right-to-left override:
// every command's human output shows them as visible escapes, and its --json output exactly.

const h = useHarness();
const REQUESTER = "10-backend-group";
const TARGET = "20-frontend-group";
/** What a hostile note carries in its fields and body. */
const EVIL = "bad\x1b]52;c;cm0gLXJmIH4=\x07\x1b[31m\rforged line\nsecond\u202eline";
const EVIL_BODY = `## Answer\n\nfirst line\x1b[2J\rhidden\nnext line\x9b31m\u2066\n`;

let remote: RemoteAgentServer;
beforeEach(async () => {
	remote = await startRemoteAgents();
});
afterEach(async () => {
	await remote.close();
});

/** Every character a terminal would act on: C0 but the line breaks between lines, DEL, C1, bidi controls. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The CLI's human output, checked for raw controls; its lines as printed. */
function human(result: CliResult): string[] {
	for (const line of [...result.stdout, ...result.stderr]) expect(line, JSON.stringify(line)).not.toMatch(RAW);
	return [...result.stdout, ...result.stderr];
}

async function send(v: TempVault, to: string): Promise<string> {
	const sent = await a2a(v.dir, "send", "--from", REQUESTER, "--to", to, "--type", "query", "--question", "Please answer", "--json");
	expect(sent.code, sent.stderr.join("\n")).toBe(0);
	return sent.json[0].message_id as string;
}

describe("remote and note text reaches the terminal escaped, and --json exactly", () => {
	it("a2a route prints a remote agent's failure text escaped on one line; --json keeps it exact", async () => {
		const v = await h.vault((text) => text.replace("groups:\n", `groups:\n  remote-hostile:\n    url: ${remote.url("hostile")}\n`));
		await send(v, "remote-hostile");
		const routed = await a2a(v.dir, "route");
		const lines = human(routed);
		const answered = lines.filter((l) => l.includes("disk full"));
		expect(answered.length, lines.join("\n")).toBeGreaterThan(0);
		for (const line of answered) expect(line).toContain("disk full\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[31m\\rdelivered 00000000 fake\\nsecond line\\u202e");
		expect(lines.some((l) => l.startsWith("second line") || l.startsWith("delivered 00000000"))).toBe(false);

		// The error response is in the requester's inbox: read, inbox, trace, wait, take show it escaped.
		const [response] = (await a2a(v.dir, "inbox", "--group", REQUESTER, "--json")).json;
		expect(response).toBeDefined();
		const read = await a2a(v.dir, "read", response.message_id as string, "--json");
		// The note holds the remote's text (its lone CR made a line break by the router); --json prints it exactly.
		const stored = (await v.frontmatter(response.path as string)).error_message as string;
		expect(stored).toContain(HOSTILE_REASON.replace("\r", "\n"));
		expect((read.json[0] as { error_message: string }).error_message).toBe(stored);
		expect(human(await a2a(v.dir, "read", response.message_id as string)).join("\n")).toContain("\\x1b]52;c;cm0gLXJmIH4=\\x07");
	});

	it("inbox, read, trace, wait, take and status escape a note's fields and body, and print them exactly with --json", async () => {
		const v = await h.vault();
		const id = await send(v, TARGET);
		expect((await a2a(v.dir, "route")).code).toBe(0);
		const request = (await a2a(v.dir, "read", id, "--json")).json[0] as { trace_id: string };
		const response = ["---", `trace_id: ${request.trace_id}`, `source_group: ${TARGET}`, `in_reply_to: ${id}`, "status: error", "error_code: AGENT_FAILED", `error_message: ${JSON.stringify(EVIL)}`, "---", "", EVIL_BODY].join("\n");
		await v.write(`${BOX(TARGET, "outbox")}/answer.md`, response);
		await v.write("A2A/agents/evil.md", `---\nstatus: failed\nlast_action: ${JSON.stringify(EVIL)}\nerror: ${JSON.stringify(EVIL)}\nresult: ${JSON.stringify(EVIL)}\n---\n`);
		human(await a2a(v.dir, "route"));
		const [answer] = (await a2a(v.dir, "inbox", "--group", REQUESTER, "--json")).json;
		const answerId = answer.message_id as string;

		// --json: the text exactly as the note holds it.
		const readJson = (await a2a(v.dir, "read", answerId, "--json")).json[0] as { error_message: string; payload: Record<string, string> };
		expect(readJson.error_message).toBe(EVIL);
		expect(readJson.payload.answer).toContain("first line\x1b[2J");
		expect(readJson.payload.answer).toContain("next line\x9b31m\u2066");
		const statusJson = (await a2a(v.dir, "status", "--json")).json.find((row) => row.type === "agent");
		// (An agent's result is read lowercased.)
		expect(statusJson).toMatchObject({ last_action: EVIL, error: EVIL, result: EVIL.toLowerCase() });
		const waitJson = (await a2a(v.dir, "wait", "--message", id, "--json", "--timeout", "1")).json[0] as { response: { error_message: string } };
		expect(waitJson.response.error_message).toBe(EVIL);

		// Human output: every command escapes, a field stays on its line, a body keeps its lines.
		const escapedField = "bad\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[31m\\rforged line\\nsecond\\u202eline";
		const read = human(await a2a(v.dir, "read", answerId));
		expect(read).toContain(`error_message: ${escapedField}`);
		expect(read).toContain("first line\\x1b[2J");
		expect(read).toContain("next line\\x9b31m\\u2066");
		expect(read.some((l) => l.startsWith("forged line") || l.startsWith("second"))).toBe(false);
		const waited = human(await a2a(v.dir, "wait", "--message", id, "--timeout", "1"));
		expect(waited).toContain(`error_message: ${escapedField}`);
		const inbox = human(await a2a(v.dir, "inbox", "--group", REQUESTER));
		expect(inbox.filter((l) => l.includes(answerId))).toHaveLength(1);
		const trace = human(await a2a(v.dir, "trace", request.trace_id));
		expect(trace.filter((l) => l.includes(answerId))).toHaveLength(1);
		const status = human(await a2a(v.dir, "status"));
		expect(status.join("\n")).toContain("result=bad\\x1b]52;c;cm0glxjmih4=\\x07");
		expect(status.some((l) => l.startsWith("forged line") || l.startsWith("second"))).toBe(false);
		human(await a2a(v.dir, "take", answerId));
	});
});
