import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import esbuild from "esbuild";
import type { Metafile } from "esbuild";
import { afterAll, afterEach, beforeAll } from "vitest";

// The real CLI bundle as child processes, for the fault tests that kill or race routers
// (test/cli/faults-kill.test.ts, test/cli/faults-two-routers.test.ts).

/** An `a2a route --watch` child process and the lines it has printed so far. */
export interface Watcher {
	child: ChildProcess;
	lines: string[];
	/** What it printed on stderr, line by line. */
	errors: string[];
	closed: Promise<number | null>;
}

/** Appends each whole line `stream` prints to `into`, as it comes. */
export function collectLines(stream: NodeJS.ReadableStream | null, into: string[]): void {
	let buffer = "";
	stream?.on("data", (chunk: Buffer) => {
		buffer += chunk.toString("utf8");
		const parts = buffer.split("\n");
		buffer = parts.pop() ?? "";
		into.push(...parts);
	});
}

/** A started `a2a route --watch` child, with the lines it prints on stdout and stderr collected. */
export function watching(child: ChildProcess): Watcher {
	const lines: string[] = [];
	const errors: string[] = [];
	collectLines(child.stdout, lines);
	collectLines(child.stderr, errors);
	const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
	return { child, lines, errors, closed };
}

export interface SpawnOptions {
	env?: Record<string, string>;
	prefix?: string[];
}

export interface CliBundle {
	/** The bundle's file, for tests that must start it through a shell (pipes). Valid inside tests. */
	path(): string;
	/** esbuild's account of the bundle: its inputs and what each imports, and how. Valid inside tests. */
	metafile(): Metafile;
	/**
	 * Starts `a2a ...args` as a child process of the bundle; it is SIGKILLed after the test if still
	 * running. `env` adds to the environment; `prefix` runs it through another program (faketime).
	 */
	spawn(args: string[], options?: SpawnOptions): ChildProcess;
	/** Starts `a2a route --watch --json --interval 20` on `dir` (plus `extra` arguments), collecting its stdout and stderr lines. */
	startWatcher(dir: string, options?: SpawnOptions & { extra?: string[] }): Watcher;
}

/**
 * Builds the CLI bundle (cli/bin.ts, with esbuild) before the file's tests, removes it after them,
 * and kills every child process still running after each test. Call once at the top of a test file.
 */
export function useCliBundle(): CliBundle {
	let bundle = "";
	let bundleDir = "";
	let metafile: Metafile | undefined;
	const children = new Set<ChildProcess>();

	beforeAll(async () => {
		bundleDir = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-bundle-"));
		bundle = path.join(bundleDir, "a2a.cjs");
		({ metafile } = await esbuild.build({ entryPoints: ["cli/bin.ts"], bundle: true, platform: "node", format: "cjs", target: "node20", outfile: bundle, metafile: true, logLevel: "silent" }));
	}, 60_000);

	afterAll(() => fs.rm(bundleDir, { recursive: true, force: true }));

	afterEach(() => {
		for (const child of children) child.kill("SIGKILL");
		children.clear();
	});

	const spawnCli = (args: string[], options: SpawnOptions = {}): ChildProcess => {
		const [command, ...pre] = [...(options.prefix ?? []), process.execPath];
		const child = spawn(command, [...pre, bundle, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...options.env } });
		children.add(child);
		child.on("close", () => children.delete(child));
		return child;
	};

	return {
		path: () => bundle,
		metafile() {
			if (!metafile) throw new Error("the CLI bundle is not built yet: metafile() is valid inside tests");
			return metafile;
		},
		spawn: spawnCli,
		startWatcher(dir, options = {}) {
			return watching(spawnCli(["route", "--watch", "--json", "--interval", "20", "--vault", dir, ...(options.extra ?? [])], options));
		},
	};
}
