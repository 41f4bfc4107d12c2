import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EXAMPLE_REGISTRY } from "../../src/core/example-registry";
import { archiveMonth } from "../../src/core/layout";
import { readFrontmatter, splitNote } from "../../src/core/frontmatter";
import { main } from "../../cli/main";

// Real temp folders for CLI and router tests, and helpers to read back what landed where.

export interface TempVault {
	dir: string;
	write(rel: string, content: string): Promise<void>;
	read(rel: string): Promise<string>;
	exists(rel: string): Promise<boolean>;
	/** Every file below the vault (or below `under`), vault-relative, sorted. */
	files(under?: string): Promise<string[]>;
	frontmatter(rel: string): Promise<Record<string, unknown>>;
	body(rel: string): Promise<string>;
	cleanup(): Promise<void>;
}

export async function makeTempVault(prefix = "a2a-test-"): Promise<TempVault> {
	const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
	const abs = (rel: string) => path.join(dir, ...rel.split("/"));
	const vault: TempVault = {
		dir,
		async write(rel, content) {
			await fs.mkdir(path.dirname(abs(rel)), { recursive: true });
			await fs.writeFile(abs(rel), content, "utf8");
		},
		read: (rel) => fs.readFile(abs(rel), "utf8"),
		exists: (rel) => fs.stat(abs(rel)).then(() => true, () => false),
		async files(under = "") {
			const out: string[] = [];
			const walk = async (d: string) => {
				for (const e of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
					const full = path.join(d, e.name);
					if (e.isDirectory()) await walk(full);
					else out.push(path.relative(dir, full).split(path.sep).join("/"));
				}
			};
			await walk(under ? abs(under) : dir);
			return out.sort();
		},
		async frontmatter(rel) {
			return readFrontmatter(await vault.read(rel)) ?? {};
		},
		async body(rel) {
			return splitNote(await vault.read(rel)).body;
		},
		cleanup: () => fs.rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }),
	};
	return vault;
}

export interface CliResult {
	code: number;
	stdout: string[];
	stderr: string[];
	/** stdout lines parsed as JSON (for --json runs). */
	json: Record<string, unknown>[];
}

/** Runs the CLI in-process, exactly as `a2a ...` would, against a vault folder. */
export async function a2a(vaultDir: string, ...argv: string[]): Promise<CliResult> {
	const stdout: string[] = [];
	const stderr: string[] = [];
	const args = argv.includes("--vault") ? argv : [...argv, "--vault", vaultDir];
	const code = await main(args, { out: (l) => stdout.push(...l.split("\n")), err: (l) => stderr.push(l) });
	const json = stdout.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
	return { code, stdout, stderr, json };
}

/** The registry of the test vaults: the one `init` writes (four groups, the default settings). */
export const REGISTRY = EXAMPLE_REGISTRY;

export const BOX = (group: string, box: "inbox" | "outbox" | "archive") => `A2A/groups/${group}/${box}`;

/** The month folder of a group's archive that a note archived now goes to (`archive/YYYY-MM`, UTC). */
export const ARCHIVED = (group: string, time = new Date()) => `${BOX(group, "archive")}/${archiveMonth(time)}`;

/** A valid flat request note. */
export function requestNote(fields: Record<string, unknown>, body = "## Question\n\nWhat fields are mandatory?\n"): string {
	const defaults: Record<string, unknown> = {
		trace_id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
		hop_count: 0,
		source_group: "10-backend-group",
		target_group: "20-frontend-group",
		request_type: "query",
	};
	const all = { ...defaults, ...fields };
	const yaml = Object.entries(all)
		.filter(([, v]) => v !== undefined)
		.map(([k, v]) => `${k}: ${Array.isArray(v) ? `[${v.join(", ")}]` : typeof v === "string" ? JSON.stringify(v) : String(v)}`)
		.join("\n");
	return `---\n${yaml}\n---\n\n${body}`;
}
