import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { promises as fs, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import esbuild from "esbuild";
import { afterAll, afterEach, beforeAll } from "vitest";
import { readFrontmatter } from "../../src/core/frontmatter";

// The shell and Python examples of the documentation, run as a reader runs them: each fenced block
// is saved as a file and run by `sh -e`, `bash -e` or `python3` in a temporary home, from a folder
// outside the vault, with only `A2A_VAULT` naming the vault there and an `a2a` command on PATH (a
// launcher exactly like the package's: a copy of bin/a2a.cjs beside the CLI bundle built from cli/
// for this test file).

export const REPO = path.resolve(__dirname, "..", "..");

/** The documents whose examples must run: a reader copies them first. */
export const DOCUMENTS = ["README.md", "docs/agents.md"] as const;

/** The fence languages this runs, and how. */
const RUNNERS: Record<string, { command: string; args: string[]; ext: string }> = {
	sh: { command: "sh", args: ["-e"], ext: ".sh" },
	bash: { command: "bash", args: ["-e"], ext: ".sh" },
	python: { command: "python3", args: [], ext: ".py" },
};

/**
 * The marker that may stand on the line right before a fence:
 * `<!-- not run: why -->` (nothing runs the block), or
 * `<!-- end to end: why -->` (test/cli/docs-workflow.test.ts runs it, with the agents it needs).
 */
export type Marker = { kind: "not run" | "end to end"; reason: string };

export interface DocBlock {
	file: string;
	/** 1-based line of the opening fence. */
	line: number;
	lang: string;
	/** The word after the language on the fence line (```python ask.py), when there is one. */
	name?: string;
	code: string;
	marker?: Marker;
	/** The line before the fence, when it is an HTML comment that is not a known marker. */
	badMarker?: string;
}

export function blockLabel(block: DocBlock): string {
	return `${block.file}:${block.line}${block.name ? ` (${block.name})` : ""}`;
}

export function isRunnable(block: DocBlock): boolean {
	return block.lang in RUNNERS;
}

/** Every fenced block of a Markdown file, in order. */
export function readDocBlocks(file: string): DocBlock[] {
	const lines = readFileSync(path.join(REPO, file), "utf8").split("\n");
	const blocks: DocBlock[] = [];
	for (let i = 0; i < lines.length; i++) {
		const open = /^```(\S*)(?:[ \t]+(\S+))?[ \t]*$/.exec(lines[i]);
		if (!open) continue;
		const start = i;
		const code: string[] = [];
		for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) code.push(lines[i]);
		const block: DocBlock = { file, line: start + 1, lang: open[1], code: code.join("\n") + "\n" };
		if (open[2]) block.name = open[2];
		const before = lines[start - 1]?.trim() ?? "";
		const marker = /^<!-- (not run|end to end): (\S.*?) -->$/.exec(before);
		if (marker) block.marker = { kind: marker[1] as Marker["kind"], reason: marker[2] };
		else if (before.startsWith("<!--")) block.badMarker = before;
		blocks.push(block);
	}
	return blocks;
}

export function allDocBlocks(): DocBlock[] {
	return DOCUMENTS.flatMap((file) => readDocBlocks(file));
}

/** Finds the one block of `file` named `name` (the word after the fence's language). */
export function namedBlock(file: string, name: string): DocBlock {
	const found = readDocBlocks(file).filter((b) => b.name === name);
	if (found.length !== 1) throw new Error(`${file} has ${found.length} blocks named ${name}`);
	return found[0];
}

export interface RunResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/** A block started in the background: what it printed so far, and a way to stop it. */
export interface Background {
	block: DocBlock;
	child: ChildProcess;
	output(): string;
	closed: Promise<RunResult>;
}

/** A reader's home: `A2A_VAULT` is `<home>/vault`; blocks run with `<home>/work` (outside the vault) as their folder. */
export interface ReaderHome {
	home: string;
	vault: string;
	work: string;
	env: NodeJS.ProcessEnv;
}

export interface DocRunner {
	/** A fresh home for one reader, removed after the test. */
	home(): Promise<ReaderHome>;
	/** Runs the block to its end (killed after `limitMs`, a safety net for a block that hangs). */
	run(block: DocBlock, where: ReaderHome, limitMs?: number): Promise<RunResult>;
	/** Starts the block in the background; every block started is stopped after the test. */
	start(block: DocBlock, where: ReaderHome): Background;
	/** Stops a background block (SIGTERM to its process group, SIGKILL if it has not ended in 5 s). */
	stop(background: Background): Promise<RunResult>;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// the group is gone already
	}
}

/**
 * Builds the `a2a` command for the file's tests (beforeAll), removes it and the homes afterwards, and
 * stops every block still running after each test, also when the test failed. Call once per file.
 */
export function useDocRunner(): DocRunner {
	let tools = "";
	let shimDir = "";
	const homes: string[] = [];
	const running = new Set<Background>();

	beforeAll(async () => {
		tools = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-docs-cli-"));
		// The package's layout: bin/a2a.cjs loads ../dist/cli.cjs.
		await fs.mkdir(path.join(tools, "bin"));
		await fs.copyFile(path.join(REPO, "bin", "a2a.cjs"), path.join(tools, "bin", "a2a.cjs"));
		await esbuild.build({ entryPoints: [path.join(REPO, "cli", "bin.ts")], bundle: true, platform: "node", format: "cjs", target: "node20", outfile: path.join(tools, "dist", "cli.cjs"), logLevel: "silent" });
		shimDir = path.join(tools, "path");
		await fs.mkdir(shimDir);
		await fs.writeFile(path.join(shimDir, "a2a"), `#!/bin/sh\nexec "${process.execPath}" "${path.join(tools, "bin", "a2a.cjs")}" "$@"\n`, { mode: 0o755 });
	}, 60_000);

	afterEach(async () => {
		await Promise.all([...running].map((b) => stop(b)));
		await Promise.all(homes.splice(0).map((h) => fs.rm(h, { recursive: true, force: true })));
	}, 30_000);

	afterAll(async () => {
		if (tools) await fs.rm(tools, { recursive: true, force: true });
	});

	const spawnBlock = (block: DocBlock, where: ReaderHome): { child: ChildProcess; result: Promise<RunResult>; output: () => string } => {
		const runner = RUNNERS[block.lang];
		if (!runner) throw new Error(`${blockLabel(block)}: no runner for \`\`\`${block.lang}`);
		const file = path.join(where.work, block.name ?? `block-${path.basename(block.file, ".md")}-${block.line}${runner.ext}`);
		writeFileSync(file, block.code);
		const child = spawn(runner.command, [...runner.args, file], { cwd: where.work, env: where.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
		let stdout = "";
		let stderr = "";
		child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
		child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
		const result = new Promise<RunResult>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
		return { child, result, output: () => stdout + stderr };
	};

	async function stop(background: Background): Promise<RunResult> {
		running.delete(background);
		const { child } = background;
		if (child.exitCode === null && child.signalCode === null) {
			killGroup(child, "SIGTERM");
			const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5000);
			const result = await background.closed;
			clearTimeout(timer);
			return result;
		}
		killGroup(child, "SIGKILL"); // whatever it left running in its group
		return background.closed;
	}

	return {
		async home() {
			const home = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-docs-home-"));
			homes.push(home);
			const work = path.join(home, "work");
			await fs.mkdir(work);
			const env: NodeJS.ProcessEnv = {};
			// A user's shell: none of the npm_* variables of an `npm test` around us.
			// Nor a vault of ours: the examples find theirs through A2A_VAULT only.
			for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key) && !/^(A2A_)?VAULT$/.test(key)) env[key] = value;
			Object.assign(env, { HOME: home, A2A_VAULT: path.join(home, "vault"), PATH: `${shimDir}${path.delimiter}${process.env.PATH ?? ""}`, PYTHONUNBUFFERED: "1" });
			return { home, vault: path.join(home, "vault"), work, env };
		},
		async run(block, where, limitMs = 60_000) {
			const { child, result } = spawnBlock(block, where);
			const timer = setTimeout(() => killGroup(child, "SIGKILL"), limitMs);
			const done = await result;
			clearTimeout(timer);
			killGroup(child, "SIGKILL"); // anything the block left behind in its group
			return done;
		},
		start(block, where) {
			const { child, result, output } = spawnBlock(block, where);
			const background: Background = { block, child, output, closed: result };
			running.add(background);
			return background;
		},
		stop,
	};
}

/** Waits until `condition` holds, checking every 50 ms; fails with `describe()` after `limitMs`. */
export async function until(condition: () => Promise<boolean> | boolean, describe: () => string | Promise<string>, limitMs = 60_000): Promise<void> {
	const deadline = Date.now() + limitMs;
	while (!(await condition())) {
		if (Date.now() > deadline) throw new Error(`still not so: ${await describe()}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

export interface NoteOnDisk {
	/** Vault-relative path. */
	path: string;
	fm: Record<string, unknown>;
	text: string;
}

/**
 * The notes directly in a vault folder (dot-files left out), with their frontmatter; for an archive,
 * those of its month folders (`archive/YYYY-MM/`) too, oldest month first.
 */
export async function notesIn(vault: string, folder: string): Promise<NoteOnDisk[]> {
	const names = await fs.readdir(path.join(vault, ...folder.split("/"))).catch(() => [] as string[]);
	const notes: NoteOnDisk[] = [];
	if (folder.endsWith("/archive")) for (const month of names.filter((n) => /^\d{4}-\d{2}$/.test(n)).sort()) notes.push(...(await notesIn(vault, `${folder}/${month}`)));
	for (const name of names.filter((n) => n.endsWith(".md") && !n.startsWith(".")).sort()) {
		const text = await fs.readFile(path.join(vault, ...folder.split("/"), name), "utf8");
		notes.push({ path: `${folder}/${name}`, fm: readFrontmatter(text) ?? {}, text });
	}
	return notes;
}

/** Every group folder's notes plus the dead letters: where each message of the vault is now. */
export async function whereEverythingIs(vault: string, groups: readonly string[]): Promise<Record<string, NoteOnDisk[]>> {
	const places: Record<string, NoteOnDisk[]> = {};
	for (const group of groups) for (const box of ["outbox", "inbox", "archive"]) places[`${group}/${box}`] = await notesIn(vault, `A2A/groups/${group}/${box}`);
	places["dead-letter"] = await notesIn(vault, "A2A/dead-letter");
	return places;
}

/** The agents of docs/agents.md that need each other, by their fence names. */
export const WORKFLOW_AGENTS = ["answer.sh", "answer.py", "ask.py", "ask.sh"] as const;

/**
 * The blocks test/cli/docs-workflow.test.ts runs together: the docs' `a2a route --watch` and their
 * four agents. The blocks marked `<!-- end to end: ... -->` are exactly these.
 */
export function workflowBlocks(): { router: DocBlock; agents: DocBlock[] } {
	const routers = readDocBlocks("docs/agents.md").filter((b) => isRunnable(b) && /^a2a route --watch\b/m.test(b.code));
	if (routers.length !== 1) throw new Error(`docs/agents.md has ${routers.length} blocks that start a2a route --watch`);
	return { router: routers[0], agents: WORKFLOW_AGENTS.map((name) => namedBlock("docs/agents.md", name)) };
}
