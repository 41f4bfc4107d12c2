import { historyFiles } from "../test-support/bench-notes";

// A year of traffic for the benchmarks of issue 29: the bench's archived notes spread over twelve
// month folders of each archive (`archive/2026-01/` ... `archive/2026-12/`), as the router files
// them (contract v3 section 1).

export function yearHistory(archived: number): Record<string, string> {
	const files: Record<string, string> = {};
	let i = 0;
	for (const [path, text] of Object.entries(historyFiles(archived, 0))) {
		const month = String(1 + Math.floor((i++ * 12) / archived)).padStart(2, "0");
		const slash = path.lastIndexOf("/");
		files[`${path.slice(0, slash)}/2026-${month}${path.slice(slash)}`] = text;
	}
	return files;
}
