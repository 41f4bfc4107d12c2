import type { MarkdownPostProcessorContext, Plugin } from "obsidian";
import { hasExpired, isInFlightState } from "../core/message-index";
import type { IndexEntry } from "../core/message-index";
import type { RelayState } from "../obsidian/relay-state";
import { HEADER_TEXT, STATE_WORDS } from "./strings";
import { absoluteTime, noteTime, relativeTime } from "./time-format";

// A one-line header above a message note in reading view: what it is (type or status), who sends
// it to whom, its state, when it expires, and whether it came late or was taken. So a delivered
// note reads as a message, not as fifteen raw properties. Rendered on the note's first section
// (its frontmatter), for notes the index knows as messages.

function parts(entry: IndexEntry, now: number): { text: string; cls: string; title?: string }[] {
	const out: { text: string; cls: string; title?: string }[] = [];
	const response = entry.kind === "response";
	out.push({ text: response ? `${HEADER_TEXT.response}: ${entry.status ?? "?"}` : `${HEADER_TEXT.request}: ${entry.requestType ?? "?"}`, cls: "a2a-header-kind" });
	out.push({ text: `${entry.sourceGroup ?? "?"} → ${entry.targetGroup ?? "?"}`, cls: "a2a-header-route" });
	if (entry.state) out.push({ text: STATE_WORDS[entry.state] ?? entry.state, cls: `a2a-chip a2a-state a2a-state-${entry.state}` });
	const expires = noteTime(entry.expiresAt);
	if (expires !== null && !response && isInFlightState(entry.state)) {
		const relative = relativeTime(expires, now);
		out.push({ text: hasExpired(entry, now) ? HEADER_TEXT.expired(relative) : HEADER_TEXT.expiresIn(relative), cls: "a2a-header-expires", title: absoluteTime(expires) });
	}
	if (entry.late) out.push({ text: HEADER_TEXT.late, cls: "a2a-chip a2a-mark a2a-mark-late" });
	if (entry.errorCode) out.push({ text: entry.errorCode, cls: "a2a-error-code" });
	return out;
}

export function registerMessageHeader(plugin: Plugin, state: RelayState): void {
	plugin.registerMarkdownPostProcessor((el: HTMLElement, ctx: MarkdownPostProcessorContext) => {
		const info = ctx.getSectionInfo(el);
		if (!info || info.lineStart !== 0) return;
		const entry = state.index().get(ctx.sourcePath);
		if (!entry || (entry.kind !== "request" && entry.kind !== "response")) return;
		const header = createDiv({ cls: "a2a-message-header", attr: { role: "group", "aria-label": HEADER_TEXT.label } });
		for (const part of parts(entry, Date.now())) {
			const span = header.createSpan({ cls: part.cls, text: part.text });
			if (part.title) span.setAttr("title", part.title);
		}
		el.prepend(header);
	});
}
