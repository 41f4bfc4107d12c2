import { AbstractInputSuggest, TFile, prepareFuzzySearch } from "obsidian";
import type { App } from "obsidian";

// Type-ahead for vault files (artifacts of a message): fuzzy on the path, best match first.

export class FileSuggest extends AbstractInputSuggest<TFile> {
	constructor(
		app: App,
		inputEl: HTMLInputElement,
		private readonly onPick: (file: TFile) => void,
	) {
		super(app, inputEl);
		this.limit = 30;
	}

	protected getSuggestions(query: string): TFile[] {
		const files = this.app.vault.getFiles();
		const q = query.trim();
		if (q === "") return files.slice().sort((a, b) => b.stat.mtime - a.stat.mtime);
		const search = prepareFuzzySearch(q);
		const scored: { file: TFile; score: number }[] = [];
		for (const file of files) {
			const match = search(file.path);
			if (match) scored.push({ file, score: match.score });
		}
		scored.sort((a, b) => b.score - a.score);
		return scored.map((s) => s.file);
	}

	renderSuggestion(file: TFile, el: HTMLElement): void {
		el.addClass("a2a-suggestion");
		el.createDiv({ cls: "a2a-suggestion-title", text: file.name });
		if (file.parent && !file.parent.isRoot()) el.createDiv({ cls: "a2a-suggestion-note", text: file.parent.path });
	}

	selectSuggestion(file: TFile, evt: MouseEvent | KeyboardEvent): void {
		super.selectSuggestion(file, evt);
		this.onPick(file);
		this.close();
	}
}
