/** Computes a CachedMetadata-like object from note text: frontmatter, headings, links, embeds, tags. */
import { getFrontMatterInfo, parseFrontmatterObject } from "./yaml";

export interface Loc {
	line: number;
	col: number;
	offset: number;
}

export interface Pos {
	start: Loc;
	end: Loc;
}

export interface HeadingCache {
	heading: string;
	level: number;
	position: Pos;
}

export interface LinkCache {
	link: string;
	original: string;
	displayText?: string;
	position: Pos;
}

export interface TagCache {
	tag: string;
	position: Pos;
}

export interface CachedMetadata {
	frontmatter?: Record<string, unknown>;
	frontmatterPosition?: Pos;
	headings?: HeadingCache[];
	links?: LinkCache[];
	embeds?: LinkCache[];
	tags?: TagCache[];
}

function loc(line: number, col: number, offset: number): Loc {
	return { line, col, offset };
}

export function parseMarkdown(content: string): CachedMetadata {
	const cache: CachedMetadata = {};
	const fm = getFrontMatterInfo(content);
	let bodyStartLine = 0;
	if (fm.exists) {
		const closeLineStart = content.lastIndexOf("\n", fm.contentStart - 2) + 1;
		const closeLineEnd = content[fm.contentStart - 1] === "\n" ? fm.contentStart - 1 : fm.contentStart;
		cache.frontmatterPosition = {
			start: loc(0, 0, 0),
			end: loc(fm.endLine, closeLineEnd - closeLineStart, closeLineEnd),
		};
		try {
			const data = parseFrontmatterObject(fm.frontmatter);
			if (Object.keys(data).length > 0) cache.frontmatter = data;
		} catch {
			// Obsidian keeps the note in the cache without frontmatter when the YAML is invalid.
		}
		bodyStartLine = fm.endLine + 1;
	}

	const headings: HeadingCache[] = [];
	const links: LinkCache[] = [];
	const embeds: LinkCache[] = [];
	const tags: TagCache[] = [];
	const lines = content.split("\n");
	let offset = 0;
	let fence: string | null = null;
	for (let i = 0; i < lines.length; i++) {
		const raw = lines[i] ?? "";
		const line = raw.replace(/\r$/, "");
		const lineOffset = offset;
		offset += raw.length + 1;
		if (i < bodyStartLine) continue;
		const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
		if (fence !== null) {
			if (fenceMatch && fenceMatch[1]?.[0] === fence[0] && (fenceMatch[1]?.length ?? 0) >= fence.length) fence = null;
			continue;
		}
		if (fenceMatch?.[1]) {
			fence = fenceMatch[1];
			continue;
		}
		const heading = /^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
		if (heading?.[1]) {
			headings.push({
				heading: (heading[2] ?? "").trim(),
				level: heading[1].length,
				position: { start: loc(i, 0, lineOffset), end: loc(i, line.length, lineOffset + line.length) },
			});
		}
		const wiki = /(!?)\[\[([^\]\n]+?)\]\]/g;
		for (let m = wiki.exec(line); m; m = wiki.exec(line)) {
			const inner = m[2] ?? "";
			const bar = inner.indexOf("|");
			const link = (bar < 0 ? inner : inner.slice(0, bar)).trim();
			const entry: LinkCache = {
				link,
				original: m[0],
				displayText: bar < 0 ? link : inner.slice(bar + 1),
				position: {
					start: loc(i, m.index, lineOffset + m.index),
					end: loc(i, m.index + m[0].length, lineOffset + m.index + m[0].length),
				},
			};
			(m[1] ? embeds : links).push(entry);
		}
		const md = /(!?)\[([^\]\n]*)\]\(([^)\s]+)\)/g;
		for (let m = md.exec(line); m; m = md.exec(line)) {
			const target = m[3] ?? "";
			if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
			let link = target;
			try {
				link = decodeURI(target);
			} catch {
				// keep the raw target
			}
			const entry: LinkCache = {
				link,
				original: m[0],
				displayText: m[2] ?? "",
				position: {
					start: loc(i, m.index, lineOffset + m.index),
					end: loc(i, m.index + m[0].length, lineOffset + m.index + m[0].length),
				},
			};
			(m[1] ? embeds : links).push(entry);
		}
		if (!heading) {
			const tagRe = /(^|\s)(#[^\s#!"$%&'()*+,.:;<=>?@^`{|}~[\]\\]+)/g;
			for (let m = tagRe.exec(line); m; m = tagRe.exec(line)) {
				const tag = m[2] ?? "";
				if (/^#\d+$/.test(tag)) continue;
				const col = m.index + (m[1]?.length ?? 0);
				tags.push({
					tag,
					position: { start: loc(i, col, lineOffset + col), end: loc(i, col + tag.length, lineOffset + col + tag.length) },
				});
			}
		}
	}
	if (headings.length > 0) cache.headings = headings;
	if (links.length > 0) cache.links = links;
	if (embeds.length > 0) cache.embeds = embeds;
	if (tags.length > 0) cache.tags = tags;
	return cache;
}
