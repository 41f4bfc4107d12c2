import { AbstractInputSuggest, prepareFuzzySearch } from "obsidian";
import type { App } from "obsidian";
import type { GroupEntry } from "../../core/registry";

// Type-ahead for group ids over a text input: the registry's groups, fuzzy-matched on the id and
// the description, best match first, a few at a time (a short list covers less of the form below).
// Choosing one fills the input, closes the list and moves on to the form's next field.

const SHOWN = 8;

/** The first control of the form row after the input's row, if any. */
function nextControl(input: HTMLElement): HTMLElement | null {
	for (let row = input.closest(".setting-item")?.nextElementSibling; row; row = row.nextElementSibling) {
		const control = row.querySelector<HTMLElement>("input:not([disabled]), textarea:not([disabled]), select:not([disabled])");
		if (control) return control;
	}
	return null;
}

export class GroupSuggest extends AbstractInputSuggest<GroupEntry> {
	constructor(
		app: App,
		private readonly inputEl: HTMLInputElement,
		/** The groups to offer now (read on every keystroke, so registry edits show at once). */
		private readonly groups: () => GroupEntry[],
		private readonly onPick?: (id: string) => void,
	) {
		super(app, inputEl);
		this.limit = SHOWN;
	}

	protected getSuggestions(query: string): GroupEntry[] {
		const groups = this.groups();
		const q = query.trim();
		if (q === "") return groups;
		const search = prepareFuzzySearch(q);
		const scored: { group: GroupEntry; score: number }[] = [];
		for (const group of groups) {
			const onId = search(group.id);
			const onDesc = group.description ? search(group.description) : null;
			const best = onId ?? onDesc;
			if (best) scored.push({ group, score: onId ? onId.score : best.score - 1 });
		}
		scored.sort((a, b) => b.score - a.score);
		return scored.map((s) => s.group);
	}

	renderSuggestion(group: GroupEntry, el: HTMLElement): void {
		el.addClass("a2a-suggestion");
		el.createDiv({ cls: "a2a-suggestion-title", text: group.id });
		if (group.description) el.createDiv({ cls: "a2a-suggestion-note", text: group.description });
	}

	selectSuggestion(group: GroupEntry, evt: MouseEvent | KeyboardEvent): void {
		this.setValue(group.id);
		this.inputEl.dispatchEvent(new Event("input"));
		super.selectSuggestion(group, evt);
		this.onPick?.(group.id);
		this.close();
		// On to the next field of the form: the list is gone and covers nothing.
		nextControl(this.inputEl)?.focus();
	}
}
