import { asSentence, groupReason, unknownGroupReason } from "../core/group-reasons";
import type { VaultLayout } from "../core/layout";
import { checkOutgoing, refusal } from "../core/outgoing";
import type { RoutingContext, Verdict } from "../core/routing";
import { FORM_ERROR, addError } from "./form-errors";
import type { FieldErrors } from "./form-errors";

// The checks a composed, answered, forwarded or retried message goes through before anything is
// written: exactly the router's (read, validate, decide), with each problem mapped to the form
// field that can fix it. A field-less problem is reported under FORM_ERROR.

export interface NoteCheck {
	errors: FieldErrors;
	/** What the router would do with the note, when it reads and validates. */
	verdict?: Verdict;
}

/**
 * Reads and validates a note as the router would in `group`'s outbox, then asks the router's
 * decision. `decidePath` is the path the note is decided under (its current path when it is
 * already indexed, so it is not taken for its own duplicate).
 */
export function checkOutboxNote(ctx: RoutingContext, text: string, path: string, group: string, fieldOf: Record<string, string>, decidePath = path): NoteCheck {
	const errors: FieldErrors = {};
	const check = checkOutgoing(text, group, ctx, decidePath);
	if (check.stage === "parse") {
		addError(errors, FORM_ERROR, `The note would not parse: ${check.reason}`);
		return { errors };
	}
	if (check.stage === "validate") {
		for (const problem of check.problems) addError(errors, fieldOf[problem.field] ?? FORM_ERROR, `${problem.field} ${problem.message}`);
		return { errors };
	}
	return { errors, verdict: check.verdict };
}

/** The router's refusal of a checked note as a sentence of a form (the CLI's words, capitalised); null when it would route it. */
export function routerRefusal(verdict: Verdict): string | null {
	const reason = refusal({ stage: "decide", verdict });
	return reason === null ? null : asSentence(reason);
}

/** A group that is not in the registry (any more), as a sentence of a form. */
export function goneGroup(layout: VaultLayout, id: string): string {
	return asSentence(unknownGroupReason(id, layout.groupIds()));
}

/** Null when `value` names a registry group, else why not (for a group field). */
export function groupProblem(layout: VaultLayout, value: string, what: string): string | null {
	if (value === "") return `Choose the ${what}.`;
	const reason = groupReason(value, layout.groupIds());
	return reason === null ? null : asSentence(reason);
}
