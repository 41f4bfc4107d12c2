import { normalizePath } from "obsidian";
import type { VaultLayout } from "../core/layout";
import { readRawMessage } from "../core/message-parse";
import { stem } from "../core/paths";
import { isGroupId } from "../core/registry";
import { decideOutboxNote } from "../core/routing";
import type { Verdict } from "../core/routing";
import { validateNote } from "../core/validate";
import { ObsidianVault } from "../obsidian/obsidian-vault";
import type { RelayServices } from "../services";
import { routingContext } from "./context";

// The checks a composed, answered, forwarded or retried message goes through before anything is
// written: exactly the router's (read, validate, decide), with each problem mapped to the form
// field that can fix it. A field-less problem is reported under FORM_ERROR.

export const FORM_ERROR = "_form";

export type FieldErrors = Record<string, string>;

export interface NoteCheck {
	errors: FieldErrors;
	/** What the router would do with the note, when it reads and validates. */
	verdict?: Verdict;
}

function addError(errors: FieldErrors, key: string, message: string): void {
	if (key === FORM_ERROR && errors[FORM_ERROR]) errors[FORM_ERROR] = `${errors[FORM_ERROR]}; ${message}`;
	else errors[key] ??= message;
}

/**
 * Reads and validates a note as the router would in `group`'s outbox, then asks the router's
 * decision. `decidePath` is the path the note is decided under (its current path when it is
 * already indexed, so it is not taken for its own duplicate).
 */
export function checkOutboxNote(
	services: RelayServices,
	text: string,
	path: string,
	group: string,
	fieldOf: Record<string, string>,
	now: number,
	decidePath = path,
): NoteCheck {
	const errors: FieldErrors = {};
	const read = readRawMessage(text, path);
	if (!read.ok) {
		addError(errors, FORM_ERROR, `The note would not parse: ${read.reason}`);
		return { errors };
	}
	const validation = validateNote(read.raw, text, group);
	if (!validation.ok) {
		for (const problem of validation.problems) addError(errors, fieldOf[problem.field] ?? FORM_ERROR, `${problem.field} ${problem.message}`);
		return { errors };
	}
	const verdict = decideOutboxNote({ path: decidePath, text, mtime: now, group }, routingContext(services, now), { graceMs: 0 });
	return { errors, verdict };
}

/** Null when `value` names a registry group, else why not (for a group field). */
export function groupProblem(layout: VaultLayout, value: string, what: string): string | null {
	if (value === "") return `Choose the ${what}.`;
	const shown: string = value;
	if (!isGroupId(value)) return `"${shown}" is not a group id: use letters, digits, ".", "_" or "-".`;
	if (!layout.hasGroup(value)) {
		const known = layout.groupIds();
		return `"${value}" is not in the registry (known groups: ${known.length > 0 ? known.join(", ") : "none"}).`;
	}
	return null;
}

/** Creates a new note in a folder (created when missing); a taken name gets a suffix. Returns its path. */
export async function createNote(services: RelayServices, folder: string, fileName: string, text: string): Promise<string> {
	const port = new ObsidianVault(services.app);
	const base = stem(fileName);
	for (let attempt = 0; attempt < 20; attempt++) {
		const path = normalizePath(`${folder}/${base}${attempt === 0 ? "" : `-${attempt}`}.md`);
		if (await port.create(path, text)) return path;
	}
	throw new Error(`no free file name for ${fileName} in ${folder}`);
}
