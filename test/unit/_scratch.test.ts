import { test } from "vitest";
import { readRawMessage } from "../../src/core/message-parse";
import { serialiseMessage } from "../../src/core/message-serialise";
test("s", () => {
	for (const payload of [{"": "Felis.", "2_y0g": "", "answer": [], "artifacts": ["! !"]}, {"answer":"","artifacts":["! |"]}, {"artifacts":["! |"]}]) {
	const m = {"envelope":{"kind":"response","trace_id":"00000000-0000-1000-8000-000000000000","source_group":"0","status":"success"},payload,"extra":{}} as any;
	const t = serialiseMessage(m);
	console.log(JSON.stringify(t), JSON.stringify(readRawMessage(t, "x.md")));
	}
});
