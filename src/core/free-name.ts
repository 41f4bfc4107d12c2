import { stem } from "./paths";

// The names a new note may take in a folder when its own name is taken: `name.md`, then
// `name-1.md`, `name-2.md`, ... A writer tries them in order until one is free, at most
// FREE_NAME_ATTEMPTS of them.

export const FREE_NAME_ATTEMPTS = 20;

/** The file name tried at `attempt` (0 is the note's own name). */
export function freeNameCandidate(fileName: string, attempt: number): string {
	return `${stem(fileName)}${attempt === 0 ? "" : `-${attempt}`}.md`;
}
