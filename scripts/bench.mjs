// `npm run bench`: bundles the TypeScript benchmarks with esbuild (the fake Obsidian API standing in
// for `obsidian`) and the CLI as it ships (cli/bin.ts, like esbuild.config.mjs builds dist/cli.cjs)
// into a temporary folder, then runs the benchmarks in one Node process that starts the CLI as child
// processes. Arguments are passed on (`npm run bench -- --quick`, `--only=route,cli,plugin,view`).
import esbuild from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = mkdtempSync(path.join(os.tmpdir(), "a2a-bench-build-"));
let status = 1;
try {
	const bench = path.join(out, "bench.cjs");
	const cli = path.join(out, "cli.cjs");
	const sdkServer = path.join(out, "sdk-server.cjs");
	/** One bundle for Node, as the CLI ships. */
	const bundle = (entry, outfile, more = {}) => esbuild.build({ entryPoints: [entry], bundle: true, platform: "node", format: "cjs", target: "node20", outfile, logLevel: "warning", ...more });
	await bundle(path.join(root, "bench", "run.ts"), bench, { alias: { obsidian: path.join(root, "test-support", "fake-obsidian", "index.ts") }, external: ["happy-dom"] });
	await bundle(path.join(root, "cli", "bin.ts"), cli, { banner: { js: "/* A2A Relay command-line router, bundled by esbuild */" } });
	await bundle(path.join(root, "bench", "sdk-reference-server.ts"), sdkServer);
	// happy-dom stays external: the bundle in the temporary folder finds it through NODE_PATH.
	const env = { ...process.env, NODE_PATH: path.join(root, "node_modules") };
	const result = spawnSync(process.execPath, ["--expose-gc", bench, "--cli", cli, "--sdk-server", sdkServer, ...process.argv.slice(2)], { stdio: "inherit", cwd: root, env });
	status = result.status ?? 1;
} finally {
	rmSync(out, { recursive: true, force: true });
}
process.exit(status);
