// The words for a request or an answer that cannot be written as given, said alike by the
// palette's forms (as sentences, see asSentence) and by `a2a send` / `a2a reply` and the MCP tools.

/** A request with no question or task, no context and no artifact. */
export function emptyRequestReason(type: string): string {
	return `${type === "query" ? "write the question" : "describe the task"}, or give a context or an artifact`;
}

/** A response with no answer and no artifact (an error response: no error message either). */
export function emptyAnswerReason(status: string): string {
	return status === "error" ? "say what went wrong" : "write the answer, or give artifacts";
}

/** The statuses an agent may answer with (timeout is the router's). */
export const ANSWER_STATUSES = ["success", "error"] as const;

export function isAnswerStatus(status: string): status is (typeof ANSWER_STATUSES)[number] {
	return (ANSWER_STATUSES as readonly string[]).includes(status);
}

/** Why `status` is not one an agent may answer with. */
export function answerStatusReason(status: string): string {
	return `must be ${ANSWER_STATUSES.join(" or ")}, got "${status.slice(0, 40)}"`;
}
