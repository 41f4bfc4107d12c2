// `npm run bench`: bundles the TypeScript benchmarks with esbuild (the fake Obsidian API standing in
// for `obsidian`) and runs them in one Node process, printing figures and ratios against targets.
import esbuild from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.join(root, "bench-results", "bench.cjs");
mkdirSync(path.dirname(out), { recursive: true });
await esbuild.build({
	entryPoints: [path.join(root, "bench", "run.ts")],
	bundle: true,
	platform: "node",
	format: "cjs",
	target: "node20",
	outfile: out,
	alias: { obsidian: path.join(root, "test-support", "fake-obsidian", "index.ts") },
	external: ["happy-dom"],
	logLevel: "warning",
});
// The A2A benchmark runs `a2a serve` and `a2a route` as users do: from the CLI bundle.
const cli = path.join(root, "bench-results", "cli.cjs");
await esbuild.build({ entryPoints: [path.join(root, "cli", "bin.ts")], bundle: true, platform: "node", format: "cjs", target: "node20", outfile: cli, logLevel: "warning" });
const result = spawnSync(process.execPath, ["--expose-gc", out, ...process.argv.slice(2)], { stdio: "inherit", cwd: root, env: { ...process.env, A2A_CLI_BUNDLE: cli } });
process.exit(result.status ?? 1);
