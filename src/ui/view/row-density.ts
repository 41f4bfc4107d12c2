// How the agent rows are shown: one line each when there are many agents (auto), always, or never.
// The choice is saved with the workspace, as the filter and the grouping are.

/** Rows: one line each when there are many agents (auto), always, or never. */
export type Density = "auto" | "compact" | "detailed";
export const isDensity = (value: unknown): value is Density => value === "auto" || value === "compact" || value === "detailed";
/** From this many agents on, the automatic density shows one line per agent. */
const COMPACT_FROM = 6;

/** True when the rows show one line each, for a list of `agents` agents. */
export function compactRows(density: Density, agents: number): boolean {
	return density === "compact" || (density === "auto" && agents >= COMPACT_FROM);
}
