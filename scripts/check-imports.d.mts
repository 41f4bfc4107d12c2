// Types of check-imports.mjs, for its unit test (test/unit/check-imports.test.ts).

export type Graph = Map<string, Iterable<string>>;

export interface ImportEdge {
	from: string;
	to: string;
	external: boolean;
}

export interface LayerViolation {
	from: string;
	to: string;
	fromLayer: string;
	toLayer: string;
}

export const ALLOWED: Record<string, string[]>;
export function layerOf(file: string): string | null;
export function importsOf(text: string): string[];
export function findCycles(graph: Graph): string[][];
export function layerViolations(edges: ImportEdge[]): LayerViolation[];
export function readGraph(root: string): { graph: Map<string, Set<string>>; edges: ImportEdge[]; unresolved: string[] };
