import * as fs from "node:fs";
import * as path from "node:path";

// The floor of routing one note on this disk, by hand, in one process with synchronous calls: read
// the note, write its stamped copy to a temporary file in the target folder, rename it in, unlink
// the original. What any router must at least do; `a2a route` is measured against it.

export function floorRun(dir: string, notes: { from: string; to: string; name: string }[]): number {
	const start = process.hrtime.bigint();
	for (const n of notes) {
		const src = path.join(dir, "A2A", "groups", n.from, "outbox", n.name);
		const text = fs.readFileSync(src, "utf8");
		const destDir = path.join(dir, "A2A", "groups", n.to, "inbox");
		const temp = path.join(destDir, `.${n.name}.tmp`);
		fs.writeFileSync(temp, text.replace("\n---\n", "\nstate: delivered\ndelivered_at: 2026-01-01T00:00:00.000Z\n---\n"));
		fs.renameSync(temp, path.join(destDir, n.name));
		fs.unlinkSync(src);
	}
	return Number(process.hrtime.bigint() - start) / 1e9;
}
