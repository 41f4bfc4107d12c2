import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The CLI keeps a copy of each vault's history index under the user's cache folder
// (node/history-cache-file.ts). The tests' thousands of temporary vaults keep theirs in one
// temporary folder instead, removed when the run ends: a test run leaves nothing in the home folder.

export default function setup(): () => void {
	if (process.env.A2A_CACHE_DIR) return () => undefined;
	const dir = mkdtempSync(join(tmpdir(), "a2a-test-cache-"));
	process.env.A2A_CACHE_DIR = dir;
	return () => rmSync(dir, { recursive: true, force: true });
}
