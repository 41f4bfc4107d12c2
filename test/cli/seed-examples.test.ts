import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readRawMessage } from "../../src/core/message-parse";
import { ARCHIVED, BOX, REGISTRY, a2a, makeTempVault } from "../helpers/temp-vault";
import type { TempVault } from "../helpers/temp-vault";

// The four examples of seed 001, exactly as written there, end to end through the CLI router.

const SEED = path.join(__dirname, "..", "fixtures", "seed");
let v: TempVault;

beforeEach(async () => {
	v = await makeTempVault();
	await v.write("A2A/registry.yaml", REGISTRY);
});
afterEach(() => v.cleanup());

async function place(fixture: string, group: string, as = fixture): Promise<string> {
	const text = await fs.readFile(path.join(SEED, fixture), "utf8");
	await v.write(`${BOX(group, "outbox")}/${as}`, text);
	return text;
}

function payloadOf(text: string, file: string): Record<string, unknown> {
	const read = readRawMessage(text, file);
	if (!read.ok) throw new Error(read.reason);
	return read.raw.payload;
}

for (const ext of ["yaml", "md"]) {
	describe(`seed 001 examples as .${ext} files`, () => {
		it("delivers the three requests and the response, flattened, with every payload value intact", async () => {
			const r1 = await place(`request-1-backend-asks-frontend.${ext}`, "10-backend-group");
			const r2 = await place(`request-2-frontend-asks-backend.${ext}`, "20-frontend-group");
			const r3 = await place(`request-3-devops-asks-security.${ext}`, "30-devops-group");
			const first = await a2a(v.dir, "route", "--json");
			expect(first.code).toBe(0);
			expect(first.json.map((d) => d.outcome)).toEqual(["delivered", "delivered", "delivered"]);
			// high priority first: examples 1 and 3 are high, example 2 medium.
			expect(first.json[2].trace_id).toBe("b2c3d4e5-f6a7-8901-bcde-f23456789012");

			const delivered = [
				[r1, `${BOX("20-frontend-group", "inbox")}/request-1-backend-asks-frontend.md`, "a1b2c3d4-e5f6-7890-abcd-ef1234567890"],
				[r2, `${BOX("10-backend-group", "inbox")}/request-2-frontend-asks-backend.md`, "b2c3d4e5-f6a7-8901-bcde-f23456789012"],
				[r3, `${BOX("40-security-group", "inbox")}/request-3-devops-asks-security.md`, "c3d4e5f6-a7b8-9012-cdef-345678901234"],
			] as const;
			for (const [original, where, trace] of delivered) {
				const fm = await v.frontmatter(where);
				expect(fm).toMatchObject({ kind: "request", trace_id: trace, state: "delivered", attempt: 1 });
				expect(fm.message).toBeUndefined();
				expect(payloadOf(await v.read(where), where)).toEqual(payloadOf(original, `x.${ext}`));
			}
			expect(await v.frontmatter(delivered[2][1])).toMatchObject({ request_type: "task", priority: "high", hop_count: 0 });

			const answer = await place(`response-1-frontend-answers.${ext}`, "20-frontend-group");
			const second = await a2a(v.dir, "route", "--json");
			expect(second.json).toMatchObject([{ outcome: "answered", target_group: "10-backend-group", trace_id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890" }]);
			const where = `${BOX("10-backend-group", "inbox")}/response-1-frontend-answers.md`;
			const fm = await v.frontmatter(where);
			expect(fm).toMatchObject({ kind: "response", status: "success", source_group: "20-frontend-group", target_group: "10-backend-group" });
			expect(payloadOf(await v.read(where), where)).toEqual(payloadOf(answer, `x.${ext}`));
			expect(String(payloadOf(await v.read(where), where).answer)).toContain("- password (string, min 8 chars)");
			expect(await v.frontmatter(`${ARCHIVED("20-frontend-group")}/request-1-backend-asks-frontend.md`)).toMatchObject({ state: "answered" });
		});
	});
}
