/** YAML and frontmatter text helpers (the `yaml` package), shared by FileManager and MetadataCache. */
import { parse, stringify } from "yaml";

export interface FrontMatterInfo {
	exists: boolean;
	/** The YAML text between the fences. */
	frontmatter: string;
	/** Offset where the YAML text starts. */
	from: number;
	/** Offset where the YAML text ends. */
	to: number;
	/** Offset of the first character after the closing fence line (the body). */
	contentStart: number;
	/** Zero-based line of the closing fence (fake-only, for positions). */
	endLine: number;
}

/** Same contract as Obsidian's getFrontMatterInfo: a block only when the note starts with `---`. */
export function getFrontMatterInfo(content: string): FrontMatterInfo {
	const none: FrontMatterInfo = { exists: false, frontmatter: "", from: 0, to: 0, contentStart: 0, endLine: -1 };
	const first = /^---[ \t]*(\r?\n)/.exec(content);
	if (!first) return none;
	const from = first[0].length;
	let offset = from;
	let line = 1;
	while (offset <= content.length) {
		const nl = content.indexOf("\n", offset);
		const end = nl < 0 ? content.length : nl;
		const text = content.slice(offset, end).replace(/\r$/, "");
		if (/^---[ \t]*$/.test(text)) {
			const to = Math.max(from, offset - (content[offset - 2] === "\r" ? 2 : 1));
			return {
				exists: true,
				frontmatter: offset === from ? "" : content.slice(from, to),
				from,
				to: offset === from ? from : to,
				contentStart: nl < 0 ? content.length : nl + 1,
				endLine: line,
			};
		}
		if (nl < 0) break;
		offset = nl + 1;
		line++;
	}
	return none;
}

export function parseYaml(text: string): unknown {
	return parse(text);
}

export function stringifyYaml(value: unknown): string {
	return stringify(value, { lineWidth: 0 });
}

/** Parses a frontmatter block into a plain object; throws on invalid YAML or a non-mapping. */
export function parseFrontmatterObject(yamlText: string): Record<string, unknown> {
	const value = parse(yamlText) as unknown;
	if (value === null || value === undefined) return {};
	if (typeof value !== "object" || Array.isArray(value)) {
		throw new Error("Frontmatter is not a YAML mapping");
	}
	return value as Record<string, unknown>;
}
