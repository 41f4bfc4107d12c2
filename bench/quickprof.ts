import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Session } from "node:inspector/promises";
import { NodeVault } from "../cli/node-vault";
import { Router } from "../src/router/router";

const GROUPS = Array.from({ length: 10 }, (_, i) => `g${String(i).padStart(2, "0")}-group`);
const PR = ["low", "medium", "high"];
async function main() {
	const n = 3000;
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "qp-"));
	fs.mkdirSync(path.join(dir, "A2A"), { recursive: true });
	fs.writeFileSync(path.join(dir, "A2A/registry.yaml"), `communication:\n  timeout_seconds: 3600\ngroups:\n${GROUPS.map((g) => `  ${g}: {}\n`).join("")}`);
	for (const g of GROUPS) for (const b of ["inbox", "outbox", "archive"]) fs.mkdirSync(path.join(dir, "A2A/groups", g, b), { recursive: true });
	for (let i = 0; i < n; i++) {
		const from = GROUPS[i % 10];
		const to = GROUPS[(i + 1 + (i % 7)) % 10] === from ? GROUPS[(i + 2) % 10] : GROUPS[(i + 1 + (i % 7)) % 10];
		const trace = `${(i + 1).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
		fs.writeFileSync(path.join(dir, "A2A/groups", from, "outbox", `msg-${i}.md`), `---\nmessage_id: m-${i}\ntrace_id: ${trace}\nhop_count: 0\nsource_group: ${from}\ntarget_group: ${to}\nrequest_type: query\npriority: ${PR[i % 3]}\ncreated: 2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z\n---\n\n## Question\n\nMessage ${i}?\n`);
	}
	const session = new Session();
	session.connect();
	await session.post("Profiler.enable");
	await session.post("Profiler.start");
	const router = new Router(new NodeVault(dir));
	const t0 = process.hrtime.bigint();
	await router.loadRegistry();
	await router.pass();
	console.log("router", Number(process.hrtime.bigint() - t0) / 1e6, "ms");
	const { profile } = await session.post("Profiler.stop");
	fs.writeFileSync("/tmp/prof/router.cpuprofile", JSON.stringify(profile));
	fs.rmSync(dir, { recursive: true, force: true });
}
void main();
