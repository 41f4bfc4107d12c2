// The tools of the synced-vault tests (test/cli/sync-routing.test.ts, test/cli/syncthing-harness.test.ts):
// Debian's `syncthing` and `faketime`. Found on PATH, or installed from Debian when the command runs as
// root with apt-get (as scripts/find-chromium.mjs does for the browser), or a message naming the one
// command to run.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import process from "node:process";

const TOOLS = { syncthing: "syncthing", faketime: "faketime" };

function onPath(name, env) {
	for (const dir of [...(env.PATH ?? "").split(delimiter).filter(Boolean), "/usr/bin", "/usr/sbin"]) {
		try {
			accessSync(join(dir, name), constants.X_OK);
			return join(dir, name);
		} catch {
			// not here
		}
	}
	return null;
}

/** Resolves when both tools are there (installing them when it may); throws with what to do otherwise. */
export function ensureSyncTools({ env = process.env, log = (line) => console.log(line) } = {}) {
	const missing = Object.entries(TOOLS).filter(([command]) => onPath(command, env) === null).map(([, pkg]) => pkg);
	if (missing.length === 0) {
		log(`Sync tools: ${Object.keys(TOOLS).map((c) => onPath(c, env)).join(", ")}`);
		return;
	}
	const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
	const aptGet = onPath("apt-get", env);
	const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(" ")}`;
	if (!isRoot || !aptGet) throw new Error(`The synced-vault tests need ${missing.join(" and ")}: run (as root) ${command}`);
	log(`Installing Debian's ${missing.join(" and ")} for the synced-vault tests:`);
	for (const args of [["update"], ["install", "-y", "--no-install-recommends", ...missing]]) {
		log(`$ apt-get ${args.join(" ")}`);
		const result = spawnSync(aptGet, args, { stdio: ["ignore", "inherit", "inherit"], env: { ...env, DEBIAN_FRONTEND: "noninteractive" }, timeout: 15 * 60_000 });
		if (result.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (${result.error?.message ?? `exit status ${result.status}`})`);
	}
}
