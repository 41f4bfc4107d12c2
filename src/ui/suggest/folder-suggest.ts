import { AbstractInputSuggest, TFolder, prepareFuzzySearch } from "obsidian";
import type { App } from "obsidian";

// Type-ahead for vault folders (the root folder setting): fuzzy on the path, best match first.

export class FolderSuggest extends AbstractInputSuggest<TFolder> {
	constructor(
		app: App,
		private readonly inputEl: HTMLInputElement,
	) {
		super(app, inputEl);
		this.limit = 50;
	}

	protected getSuggestions(query: string): TFolder[] {
		const folders = this.app.vault.getAllFolders(false);
		const q = query.trim();
		if (q === "") return folders;
		const search = prepareFuzzySearch(q);
		return folders
			.map((folder) => ({ folder, match: search(folder.path) }))
			.filter((f) => f.match !== null)
			.sort((a, b) => (b.match?.score ?? 0) - (a.match?.score ?? 0))
			.map((f) => f.folder);
	}

	renderSuggestion(folder: TFolder, el: HTMLElement): void {
		el.addClass("a2a-suggestion");
		el.createDiv({ cls: "a2a-suggestion-title", text: folder.path });
	}

	selectSuggestion(folder: TFolder, evt: MouseEvent | KeyboardEvent): void {
		this.setValue(folder.path);
		this.inputEl.dispatchEvent(new Event("input"));
		super.selectSuggestion(folder, evt);
		this.close();
	}
}
