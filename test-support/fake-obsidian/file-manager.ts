/** Obsidian's `FileManager`: processFrontMatter, renameFile, trashFile, generateMarkdownLink. */
import type { DataWriteOptions } from "./adapter";
import type { TAbstractFile, TFile, TFolder } from "./files";
import type { MetadataCache } from "./metadata-cache";
import { isThenable } from "./runtime";
import type { Vault } from "./vault";
import { getFrontMatterInfo, parseFrontmatterObject, stringifyYaml } from "./yaml";

export class FileManager {
	private readonly vault: Vault;
	private readonly metadataCache: MetadataCache;
	/** Fake-only: paths passed to trashFile, in order. */
	readonly trashed: string[] = [];

	constructor(vault: Vault, metadataCache: MetadataCache) {
		this.vault = vault;
		this.metadataCache = metadataCache;
	}

	/**
	 * Parses the note's YAML frontmatter into a plain object ({} when there is none), calls `fn`
	 * synchronously to mutate it, and writes the block back; the body after the block is kept
	 * byte for byte, and an object left empty removes the block. Throws on invalid YAML (and when
	 * `fn` throws or returns a promise) without writing anything.
	 */
	async processFrontMatter(file: TFile, fn: (frontmatter: Record<string, unknown>) => void, options?: DataWriteOptions): Promise<void> {
		await this.vault.process(
			file,
			(content) => {
				const info = getFrontMatterInfo(content);
				const data = info.exists ? parseFrontmatterObject(info.frontmatter) : {};
				const returned: unknown = fn(data);
				if (isThenable(returned)) {
					throw new TypeError("fake-obsidian: the processFrontMatter callback must be synchronous (it returned a promise)");
				}
				const body = info.exists ? content.slice(info.contentStart) : content;
				if (Object.keys(data).length === 0) return body;
				return `---\n${stringifyYaml(data)}---\n${body}`;
			},
			options,
			"processFrontMatter",
		);
	}

	async renameFile(file: TAbstractFile, newPath: string): Promise<void> {
		await this.vault.rename(file, newPath);
	}

	async trashFile(file: TAbstractFile): Promise<void> {
		this.trashed.push(file.path);
		await this.vault.trash(file, true);
	}

	async promptForDeletion(file: TAbstractFile): Promise<boolean> {
		await this.trashFile(file);
		return true;
	}

	getNewFileParent(sourcePath: string, newFilePath?: string): TFolder {
		void sourcePath;
		void newFilePath;
		return this.vault.getRoot();
	}

	async getAvailablePathForAttachment(filename: string, sourcePath?: string): Promise<string> {
		void sourcePath;
		const dot = filename.lastIndexOf(".");
		const stem = dot > 0 ? filename.slice(0, dot) : filename;
		const ext = dot > 0 ? filename.slice(dot) : "";
		let candidate = filename;
		for (let i = 1; this.vault.getAbstractFileByPath(candidate) || (await this.vault.adapter.exists(candidate)); i++) {
			candidate = `${stem} ${i}${ext}`;
		}
		return candidate;
	}

	/** Wikilink form (Obsidian's default setting). */
	generateMarkdownLink(file: TFile, sourcePath: string, subpath?: string, alias?: string): string {
		const linktext = this.metadataCache.fileToLinktext(file, sourcePath, true);
		return `[[${linktext}${subpath ?? ""}${alias ? `|${alias}` : ""}]]`;
	}
}
