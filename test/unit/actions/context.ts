import { buildRequest } from "../../../src/core/compose";
import type { RequestDraft } from "../../../src/core/compose";
import { EXAMPLE_REGISTRY } from "../../../src/core/example-registry";
import { VaultLayout } from "../../../src/core/layout";
import { MessageIndex, entryFromRaw } from "../../../src/core/message-index";
import type { IndexEntry } from "../../../src/core/message-index";
import { readRawMessage } from "../../../src/core/message-parse";
import { serialiseMessage } from "../../../src/core/message-serialise";
import { stampDeliveredRequest, stampNoteText } from "../../../src/core/stamps";
import { parseRegistry } from "../../../src/core/registry";
import type { RoutingContext } from "../../../src/core/routing";

// Plain inputs for the planners of src/actions: the example registry's routing context (empty
// index unless notes are added) and request notes indexed where the router would put them.

export const BACKEND = "10-backend-group";
export const FRONTEND = "20-frontend-group";
export const DEVOPS = "30-devops-group";
export const GROUPS = [BACKEND, FRONTEND, DEVOPS, "40-security-group", "a2a-gateway"];
export const NOW = Date.parse("2026-12-01T10:00:00Z");

export function routingContext(registryText = EXAMPLE_REGISTRY): RoutingContext {
	const registry = parseRegistry(registryText);
	return { registry, layout: new VaultLayout("A2A", registry), index: new MessageIndex(), now: NOW };
}

/** A request note indexed in the inbox of its target group, as delivered. */
export function deliveredRequest(ctx: RoutingContext, draft: Partial<RequestDraft> = {}): { entry: IndexEntry; text: string } {
	const message = buildRequest({ from: BACKEND, to: FRONTEND, type: "query", question: "Which fields?", ...draft }, NOW - 60_000);
	const target = message.envelope.target_group;
	// Stamped as the router stamps a delivery: only a stamped note in an inbox was delivered.
	const stamped = stampNoteText(serialiseMessage(message), "request.md", "flat", (fm) =>
		stampDeliveredRequest(fm, { target, now: NOW - 60_000, settings: ctx.registry.communication, route: [message.envelope.source_group, target], fallbackId: "unused" }),
	);
	const text = stamped.text;
	const path = `${ctx.layout.box(message.envelope.target_group, "inbox")}/request.md`;
	const read = readRawMessage(text, path);
	if (!read.ok) throw new Error(read.reason);
	const entry = entryFromRaw(path, ctx.layout.locate(path), read.raw);
	ctx.index.set(entry);
	return { entry, text };
}
