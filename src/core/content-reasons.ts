// The words for a request or an answer that cannot be written as given, said alike by the
// palette's forms (as sentences, see asSentence) and by `a2a send` / `a2a reply` and the MCP tools.

/** A request with no question or task, no context and no artifact. */
export function emptyRequestReason(type: string): string {
	return `${type === "query" ? "write the question" : "describe the task"}, or give a context or an artifact`;
}

/** The payload field a request type's main text goes to: a query asks a question, a task and an artifact request say what to do. */
export function mainTextField(type: string): "question" | "task" {
	return type === "query" ? "question" : "task";
}

export interface RequestContent {
	question?: string;
	task?: string;
	context?: string;
	artifacts?: readonly string[];
}

const said = (text: string | undefined): boolean => text !== undefined && text.trim() !== "";

/**
 * What a request of each type must carry (one rule for the CLI, the MCP tool, the palette and the
 * gateway): a query carries no task, a task no question (an artifact request may be phrased either
 * way), and every request says something: its question or task, a context or an artifact. Null
 * when the content fits its type, else the field at fault and why.
 */
export function requestContentProblem(type: string, content: RequestContent): { field: "question" | "task"; reason: string } | null {
	if (type === "query" && said(content.task)) return { field: "task", reason: "a query asks a question and carries no task: put the text in the question, or send it as type task" };
	if (type === "task" && said(content.question)) return { field: "question", reason: "a task says what to do and carries no question: put the text in the task, or send it as type query" };
	const anything = said(content.question) || said(content.task) || said(content.context) || (content.artifacts ?? []).some((a) => a.trim() !== "");
	return anything ? null : { field: mainTextField(type), reason: emptyRequestReason(type) };
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
