// How a planned action says what is wrong: one message per form field, and field-less problems
// under FORM_ERROR. The modals show each next to its field; the CLI prints them.

export const FORM_ERROR = "_form";

export type FieldErrors = Record<string, string>;

/** Adds a problem; a field keeps its first message, the form-level message collects them all. */
export function addError(errors: FieldErrors, key: string, message: string): void {
	if (key === FORM_ERROR && errors[FORM_ERROR]) errors[FORM_ERROR] = `${errors[FORM_ERROR]}; ${message}`;
	else errors[key] ??= message;
}

export function hasErrors(errors: FieldErrors): boolean {
	return Object.keys(errors).length > 0;
}
