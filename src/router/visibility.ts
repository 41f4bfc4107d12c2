import type { IndexEntry } from "../core/message-index";

// Who may read what (protocol section 7): a reader that speaks for a group (an MCP server, `a2a mcp
// --group G`) reads the messages G sent or received, by their envelope's source_group and
// target_group, and the traces G takes part in (a trace with at least one such message). Anything
// else is answered as if the relay had never held it: "not found", in the words of an unknown id.
// The vault owner's own tools (the CLI's read, trace, wait, take, reply) pass no reader and read
// everything: whoever runs them can open every note of the vault anyway.

/** The group a reader speaks for; undefined for the vault owner, who reads everything. */
export type Reader = string | undefined;

/** Whether `reader` may read this copy of a message: it sent it or it was sent to it. */
export function mayRead(entry: Pick<IndexEntry, "sourceGroup" | "targetGroup">, reader: Reader): boolean {
	return reader === undefined || entry.sourceGroup === reader || entry.targetGroup === reader;
}

/** The copies among `entries` that `reader` may read. */
export function readable<T extends Pick<IndexEntry, "sourceGroup" | "targetGroup">>(entries: T[], reader: Reader): T[] {
	return reader === undefined ? entries : entries.filter((e) => mayRead(e, reader));
}

/** Whether `reader` takes part in the trace whose messages are `entries`. */
export function takesPart(entries: Pick<IndexEntry, "sourceGroup" | "targetGroup">[], reader: Reader): boolean {
	return entries.some((e) => mayRead(e, reader));
}
