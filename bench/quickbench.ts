import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NodeVault } from "../cli/node-vault";
import { Router } from "../src/router/router";
import { floorRun } from "./route-floor";

const GROUPS = Array.from({ length: 10 }, (_, i) => `g${String(i).padStart(2, "0")}-group`);
const PR = ["low", "medium", "high"];
function note(i: number) {
	const from = GROUPS[i % 10];
	const to = GROUPS[(i + 1 + (i % 7)) % 10] === from ? GROUPS[(i + 2) % 10] : GROUPS[(i + 1 + (i % 7)) % 10];
	const trace = `${(i + 1).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
	return { from, to, name: `msg-${i}.md`, text: `---\nmessage_id: m-${i}\ntrace_id: ${trace}\nhop_count: 0\nsource_group: ${from}\ntarget_group: ${to}\nrequest_type: query\npriority: ${PR[i % 3]}\ncreated: 2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z\n---\n\n## Question\n\nMessage ${i}: what is the status of item ${i}?\n\n## Context\n\nBenchmark payload ${"lorem ipsum ".repeat(8)}\n` };
}
function seed(dir: string, n: number) {
	fs.mkdirSync(path.join(dir, "A2A"), { recursive: true });
	fs.writeFileSync(path.join(dir, "A2A/registry.yaml"), `communication:\n  timeout_seconds: 3600\ngroups:\n${GROUPS.map((g) => `  ${g}: {}\n`).join("")}`);
	for (const g of GROUPS) for (const b of ["inbox", "outbox", "archive"]) fs.mkdirSync(path.join(dir, "A2A/groups", g, b), { recursive: true });
	const notes = [];
	for (let i = 0; i < n; i++) { const x = note(i); fs.writeFileSync(path.join(dir, "A2A/groups", x.from, "outbox", x.name), x.text); notes.push(x); }
	return notes;
}
async function main() {
	const n = Number(process.argv[2] ?? 3000);
	for (let r = 0; r < 3; r++) {
		const base = fs.mkdtempSync(path.join(os.tmpdir(), "qb-"));
		const notes = seed(path.join(base, "f"), n);
		seed(path.join(base, "r"), n);
		const floor = floorRun(path.join(base, "f"), notes);
		const router = new Router(new NodeVault(path.join(base, "r")));
		const t0 = process.hrtime.bigint();
		await router.loadRegistry();
		const rep = await router.pass();
		const rs = Number(process.hrtime.bigint() - t0) / 1e9;
		console.log(`n=${n} floor ${floor.toFixed(3)} s router ${rs.toFixed(3)} s ratio ${(rs / floor).toFixed(2)} delivered ${rep.decisions.filter((d) => d.outcome === "delivered").length} failures ${rep.failures.length}`);
		fs.rmSync(base, { recursive: true, force: true });
	}
}
void main();
