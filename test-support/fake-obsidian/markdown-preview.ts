/**
 * The reading view's rendering of one note, enough for markdown post processors: the note is cut
 * into sections like Obsidian's (the frontmatter block, then each run of lines between blank
 * lines), each section is rendered into its own `div` with MarkdownRenderer, and every registered
 * post processor runs on every section, in sortOrder, with a context whose `getSectionInfo` gives
 * the section's lines and whose `frontmatter` is the note's parsed frontmatter.
 */
import type { App } from "./app";
import { Component } from "./component";
import type { MarkdownRenderChild } from "./render";
import { MarkdownRenderer } from "./render";
import { getFrontMatterInfo, parseFrontmatterObject } from "./yaml";

export interface MarkdownSectionInformation {
	text: string;
	lineStart: number;
	lineEnd: number;
}

export interface MarkdownPostProcessorContext {
	docId: string;
	sourcePath: string;
	frontmatter: Record<string, unknown> | null | undefined;
	addChild(child: MarkdownRenderChild): void;
	getSectionInfo(el: HTMLElement): MarkdownSectionInformation | null;
}

export type MarkdownPostProcessor = ((el: HTMLElement, ctx: MarkdownPostProcessorContext) => Promise<unknown> | void) & { sortOrder?: number };

interface Section {
	lineStart: number;
	lineEnd: number;
	markdown: string;
	frontmatter: boolean;
}

function sections(text: string): Section[] {
	const lines = text.split("\n");
	const out: Section[] = [];
	let i = 0;
	const info = getFrontMatterInfo(text);
	if (info.exists) {
		const end = text.slice(0, info.contentStart).split("\n").length - 2;
		out.push({ lineStart: 0, lineEnd: end, markdown: lines.slice(0, end + 1).join("\n"), frontmatter: true });
		i = end + 1;
	}
	while (i < lines.length) {
		if ((lines[i] ?? "").trim() === "") {
			i++;
			continue;
		}
		const start = i;
		if ((lines[i] ?? "").startsWith("```")) {
			i++;
			while (i < lines.length && !(lines[i] ?? "").startsWith("```")) i++;
			i++;
		} else {
			while (i < lines.length && (lines[i] ?? "").trim() !== "") i++;
		}
		const end = Math.min(i, lines.length) - 1;
		out.push({ lineStart: start, lineEnd: end, markdown: lines.slice(start, end + 1).join("\n"), frontmatter: false });
	}
	return out;
}

/** Renders `text` (the note at `sourcePath`) as the reading view would, into `el`; returns the component owning its children. */
export async function renderReadingView(app: App, text: string, sourcePath: string, el: HTMLElement): Promise<Component> {
	const owner = new Component();
	owner.load();
	const info = getFrontMatterInfo(text);
	let frontmatter: Record<string, unknown> | null = null;
	try {
		frontmatter = info.exists ? parseFrontmatterObject(info.frontmatter) : null;
	} catch {
		frontmatter = null;
	}
	const root = el.createDiv({ cls: "markdown-preview-view markdown-rendered" });
	const sectionsEl = root.createDiv({ cls: "markdown-preview-sizer markdown-preview-section" });
	const infoOf = new Map<HTMLElement, MarkdownSectionInformation>();
	const processors = app.markdownPostProcessors.slice().sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0));
	for (const section of sections(text)) {
		const div = sectionsEl.createDiv();
		infoOf.set(div, { text, lineStart: section.lineStart, lineEnd: section.lineEnd });
		if (section.frontmatter) {
			div.addClass("mod-frontmatter", "mod-ui");
			div.createEl("pre", { cls: "frontmatter", text: info.frontmatter });
		} else await MarkdownRenderer.render(app as never, section.markdown, div, sourcePath, owner);
		const ctx: MarkdownPostProcessorContext = {
			docId: sourcePath,
			sourcePath,
			frontmatter,
			addChild: (child) => owner.addChild(child),
			getSectionInfo: (target) => infoOf.get(target) ?? null,
		};
		for (const processor of processors) await processor(div, ctx);
	}
	return owner;
}
