// A small, strict argument parser: `--flag value`, `--flag=value`, repeated flags, boolean flags.
// Unknown flags are usage errors (exit 1) with a hint, never silently ignored.

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

export function parseArgs(argv: string[], spec: FlagSpec): ParsedArgs {
	const values = new Map<string, string[]>();
	const booleans = new Set<string>();
	const positionals: string[] = [];
	const valueFlags = new Set<string>([...spec.values, ...COMMON_VALUES]);
	const boolFlags = new Set<string>([...spec.booleans, ...COMMON_BOOLEANS]);
	const repeated = new Set(spec.repeated ?? []);
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === "-h") {
			booleans.add("help");
			continue;
		}
		if (!arg.startsWith("--")) {
			positionals.push(arg);
			continue;
		}
		const eq = arg.indexOf("=");
		const name = arg.slice(2, eq < 0 ? undefined : eq);
		if (boolFlags.has(name)) {
			if (eq >= 0) throw new UsageError(`--${name} takes no value`);
			booleans.add(name);
			continue;
		}
		if (!valueFlags.has(name)) {
			const known = [...valueFlags, ...boolFlags].map((f) => `--${f}`).join(", ");
			throw new UsageError(`unknown option --${name} (this command takes ${known})`);
		}
		let value: string | undefined;
		if (eq >= 0) value = arg.slice(eq + 1);
		else {
			value = argv[i + 1];
			if (value === undefined || (value.startsWith("--") && value.length > 2)) throw new UsageError(`--${name} needs a value`);
			i++;
		}
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
