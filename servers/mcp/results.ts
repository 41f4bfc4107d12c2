import type { CallToolResult } from "@modelcontextprotocol/server";
import { Refused } from "../../src/router/refused";
import type { McpContext } from "./context";

// How a tool answers: the result as structuredContent and the same JSON as text; a refusal (or any
// failure) as `isError: true` with a sentence that names the argument at fault and what to do.
// Nothing is written on a refusal: every check comes before the one write a tool makes.

export function ok(data: object): CallToolResult {
	return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data as Record<string, unknown> };
}

export function refused(tool: string, message: string): CallToolResult {
	return { isError: true, content: [{ type: "text", text: `${tool}: ${message}` }] };
}

/** Runs a tool's work in the server's turn; refusals and failures become isError results. */
export async function answer(ctx: McpContext, tool: string, work: () => Promise<object>, serial = true): Promise<CallToolResult> {
	try {
		return ok(serial ? await ctx.serial(work) : await work());
	} catch (error) {
		if (error instanceof Refused) {
			const field = error.field ? `${error.field}: ` : "";
			return refused(tool, `${field}${error.message.replace(/\.$/, "")}. Nothing was written.`);
		}
		const message = error instanceof Error ? error.message : String(error);
		ctx.log(`${tool} failed: ${message}`);
		return refused(tool, `could not be done: ${message}`);
	}
}
