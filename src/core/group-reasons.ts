import { isGroupId } from "./registry";

// The words for a group id that cannot be used, said alike by the router (a GROUP_NOT_FOUND
// reason), the plugin's forms and the CLI's usage errors.

/** `group "x" is not in the registry (known groups: a, b)`. */
export function unknownGroupReason(id: string, known: readonly string[]): string {
	return `group "${id}" is not in the registry (known groups: ${known.length > 0 ? known.join(", ") : "none"})`;
}

/** `"x y" is not a group id: ...` (what a group id may contain). */
export function groupIdReason(id: string): string {
	return `"${id}" is not a group id: use letters, digits, ".", "_" or "-"`;
}

/** Null when `id` is a group id among `known`, else why not. */
export function groupReason(id: string, known: readonly string[]): string | null {
	if (!isGroupId(id)) return groupIdReason(id);
	return known.includes(id) ? null : unknownGroupReason(id, known);
}

/** A request from a group to itself (rule 6 refuses it as a cycle; the forms refuse it first). */
export function selfRequestReason(id: string): string {
	return `${id} cannot send a request to itself: choose another group`;
}

/** A reason as a sentence of a form: capital first letter, final period. */
export function asSentence(reason: string): string {
	return `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;
}

/** A request to the gateway group: it carries outside A2A clients' requests in (a2a serve) and answers none. */
export function gatewayTargetReason(id: string): string {
	return `${id} is the gateway group: it carries the requests of outside A2A clients (a2a serve) and answers none; send the request to the group that does the work`;
}
