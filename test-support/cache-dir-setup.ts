import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The CLI keeps a copy of each vault's history index under the user's cache folder
// (node/history-cache-folder.ts), and each vault's device state (its id, routing lock and lease
// observations) under the user's state folder (node/state-folder.ts). The tests' thousands of
// temporary vaults keep theirs in temporary folders instead, removed when the run ends: a test run
// leaves nothing in the home folder.

export default function setup(): () => void {
	const made: string[] = [];
	if (!process.env.A2A_CACHE_DIR) {
		process.env.A2A_CACHE_DIR = mkdtempSync(join(tmpdir(), "a2a-test-cache-"));
		made.push(process.env.A2A_CACHE_DIR);
	}
	if (!process.env.XDG_STATE_HOME) {
		process.env.XDG_STATE_HOME = mkdtempSync(join(tmpdir(), "a2a-test-state-"));
		made.push(process.env.XDG_STATE_HOME);
	}
	return () => {
		for (const dir of made) rmSync(dir, { recursive: true, force: true });
	};
}
