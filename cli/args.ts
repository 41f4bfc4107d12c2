import { parseArgs as nodeParseArgs } from "node:util";

// A small, strict argument parser over Node's tokenizer: `--flag value`, `--flag=value`, repeated
// flags, boolean flags. Unknown flags are usage errors (exit 1) with a hint, never silently ignored.

export class UsageError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "UsageError";
	}
}

export interface FlagSpec {
	/** Flags that take a value. */
	values: readonly string[];
	/** Flags that may be given several times (a subset of `values`). */
	repeated?: readonly string[];
	/** Flags without a value. */
	booleans: readonly string[];
}

export interface ParsedArgs {
	positionals: string[];
	values: Map<string, string[]>;
	booleans: Set<string>;
}

export const COMMON_VALUES = ["vault", "root"] as const;
export const COMMON_BOOLEANS = ["json", "help"] as const;

/** The closest of `candidates` to a misspelled `word` (at most two edits, or a prefix), for a "did you mean". */
export function closest(word: string, candidates: readonly string[]): string | undefined {
	const distance = (a: string, b: string): number => {
		let row = Array.from({ length: b.length + 1 }, (_, j) => j);
		for (let i = 1; i <= a.length; i++) {
			const next = [i];
			for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
			row = next;
		}
		return row[b.length];
	};
	let best: { name: string; d: number } | undefined;
	for (const name of candidates) {
		const d = name.startsWith(word) && word.length >= 2 ? 1 : distance(word.toLowerCase(), name);
		if (d <= Math.min(2, Math.floor(name.length / 2)) && (best === undefined || d < best.d)) best = { name, d };
	}
	return best?.name;
}

/**
 * Node's own tokenizer (`util.parseArgs` with tokens) splits the arguments; the rules here are the
 * CLI's: every flag is declared, a value flag needs a value (not the next flag), a flag is given
 * once unless it may repeat, `-h` is --help, and after `--` everything is a positional.
 */
export function parseArgs(argv: string[], spec: FlagSpec): ParsedArgs {
	const values = new Map<string, string[]>();
	const booleans = new Set<string>();
	const positionals: string[] = [];
	const valueFlags = new Set<string>([...spec.values, ...COMMON_VALUES]);
	const boolFlags = new Set<string>([...spec.booleans, ...COMMON_BOOLEANS]);
	const repeated = new Set(spec.repeated ?? []);
	const options: Record<string, { type: "string" | "boolean"; multiple: boolean }> = {};
	for (const name of valueFlags) options[name] = { type: "string", multiple: true };
	for (const name of boolFlags) options[name] = { type: "boolean", multiple: true };
	const { tokens } = nodeParseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
	for (const token of tokens) {
		if (token.kind === "positional") {
			positionals.push(token.value);
			continue;
		}
		if (token.kind === "option-terminator") continue;
		const { name } = token;
		if (token.rawName === "-h") {
			booleans.add("help");
			continue;
		}
		if (boolFlags.has(name) && token.rawName === `--${name}`) {
			if (token.inlineValue) throw new UsageError(`--${name} takes no value`);
			booleans.add(name);
			continue;
		}
		if (!valueFlags.has(name) || token.rawName !== `--${name}`) {
			const known = [...valueFlags, ...boolFlags];
			const guess = closest(name, known);
			throw new UsageError(`unknown option ${token.rawName}${guess ? ` (did you mean --${guess}?)` : ""} (this command takes ${known.map((f) => `--${f}`).join(", ")})`);
		}
		const value = token.value;
		if (value === undefined || (!token.inlineValue && value.startsWith("--") && value.length > 2)) throw new UsageError(`--${name} needs a value`);
		const list = values.get(name) ?? [];
		if (list.length > 0 && !repeated.has(name)) throw new UsageError(`--${name} was given more than once`);
		list.push(value);
		values.set(name, list);
	}
	return { positionals, values, booleans };
}

export function one(args: ParsedArgs, name: string): string | undefined {
	return args.values.get(name)?.[0];
}

export function many(args: ParsedArgs, name: string): string[] {
	return args.values.get(name) ?? [];
}

export function required(args: ParsedArgs, name: string, hint: string): string {
	const value = one(args, name);
	if (value === undefined || value.trim() === "") throw new UsageError(`--${name} is required: ${hint}`);
	return value;
}

export function integer(args: ParsedArgs, name: string, min: number): number | undefined {
	const raw = one(args, name);
	if (raw === undefined) return undefined;
	if (!/^-?\d+$/.test(raw.trim()) || Number(raw) < min) throw new UsageError(`--${name} must be a whole number >= ${min}, got "${raw}"`);
	return Number(raw);
}

/** The one positional argument of a command that takes an id (`a2a read ID`). */
export function positionalId(args: ParsedArgs, hint: string): string {
	const [id, extra] = args.positionals;
	if (id === undefined || id.trim() === "") throw new UsageError(`give the ID: ${hint}`);
	if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}": give one ID`);
	return id;
}
