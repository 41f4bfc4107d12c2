// Medians and spreads: every figure `npm run bench` prints is the median of several runs, with the
// smallest and largest run beside it, so that a reader sees how much the machine's load moved it.

export interface Spread {
	median: number;
	min: number;
	max: number;
	runs: number;
}

export function spread(values: readonly number[]): Spread {
	if (values.length === 0) throw new Error("no runs to summarise");
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
	return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: sorted.length };
}

/** The q-quantile (0..1) of samples, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Decimals that keep two or three significant digits for the figures printed here. */
function digits(value: number): number {
	const abs = Math.abs(value);
	if (abs >= 100) return 0;
	if (abs >= 10) return 1;
	if (abs >= 1) return 2;
	return 3;
}

export function fmt(value: number, unit = ""): string {
	return `${value.toFixed(digits(value))}${unit}`;
}

/** A difference with its sign: "+4.3 MB", "-0.09 MB". */
export function fmtDelta(value: number, unit = ""): string {
	return `${value >= 0 ? "+" : "-"}${fmt(Math.abs(value), unit)}`;
}

/** "median (min–max) unit" for one figure; only the median when there was one run. */
export function fmtSpread(s: Spread, unit = ""): string {
	const d = digits(s.median);
	if (s.runs === 1) return `${s.median.toFixed(d)}${unit}`;
	return `${s.median.toFixed(d)}${unit} (${s.min.toFixed(d)}–${s.max.toFixed(d)})`;
}

export const elapsedMs = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

/** Runs a full garbage collection when Node runs with --expose-gc (scripts/bench.mjs starts it so). */
export function collectGarbage(): void {
	(globalThis as { gc?: () => void }).gc?.();
}

/** The order of `items` for round `round`: each item comes first in turn, so that none is always measured on a warmer or cooler machine. */
/** `a` and `b` run `rounds` times each, in turns whose order swaps from round to round; their results. */
export function alternately<T>(rounds: number, a: () => T, b: () => T): [T[], T[]] {
	const as: T[] = [];
	const bs: T[] = [];
	for (let round = 0; round < rounds; round++) {
		if (round % 2 === 0) {
			as.push(a());
			bs.push(b());
		} else {
			bs.push(b());
			as.push(a());
		}
	}
	return [as, bs];
}

export function rotate<T>(items: readonly T[], round: number): T[] {
	const k = round % items.length;
	return [...items.slice(k), ...items.slice(0, k)];
}
