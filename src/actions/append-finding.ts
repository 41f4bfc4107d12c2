import { appendFinding } from "../core/findings";
import type { Finding } from "../core/findings";
import { iso } from "../core/stamps";
import { editNote } from "../router/edit-note";
import type { VaultPort } from "../router/vault-port";
import type { FieldErrors } from "./form-errors";

// Append finding: a `## [ISO timestamp] ACTION` section with Context, Data, Decisions and Next
// steps, appended to the agent note in one edit.

export function planFinding(values: Finding): { ok: true; finding: Finding } | { ok: false; errors: FieldErrors } {
	const action = values.action.replace(/\s+/g, " ").trim();
	if (action === "") return { ok: false, errors: { action: "Name the action (it becomes the heading)." } };
	return { ok: true, finding: { ...values, action } };
}

export async function writeFinding(vault: Pick<VaultPort, "read" | "replace">, path: string, finding: Finding, now: number): Promise<void> {
	if (!(await editNote(vault, path, (text) => appendFinding(text, finding, iso(now))))) throw new Error(`${path} was moved or deleted meanwhile`);
}
