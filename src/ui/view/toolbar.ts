import { setIcon } from "obsidian";
import { GROUPINGS, isGrouping } from "./agent-sections";
import type { Grouping } from "./agent-sections";
import { VIEW_TEXT } from "../strings";

// The filter box, the grouping dropdown and the compact-rows switch. Both are native controls, so they work from the
// keyboard; Escape in the filter box clears it.

const GROUPING_LABELS: Record<Grouping, string> = { group: VIEW_TEXT.byGroup, status: VIEW_TEXT.byStatus };

export interface ToolbarHandlers {
	onFilter(query: string): void;
	onGrouping(grouping: Grouping): void;
	onCompact(compact: boolean): void;
}

export class Toolbar {
	readonly el: HTMLElement;
	readonly filterEl: HTMLInputElement;
	readonly groupingEl: HTMLSelectElement;
	readonly compactEl: HTMLButtonElement;

	constructor(parent: HTMLElement, query: string, grouping: Grouping, handlers: ToolbarHandlers) {
		this.el = parent.createDiv({ cls: "a2a-toolbar" });
		this.filterEl = this.el.createEl("input", {
			cls: "a2a-filter",
			type: "search",
			placeholder: VIEW_TEXT.filterPlaceholder,
			attr: { "aria-label": VIEW_TEXT.filterLabel, spellcheck: "false" },
		});
		this.filterEl.value = query;
		this.filterEl.addEventListener("input", () => handlers.onFilter(this.filterEl.value));
		this.filterEl.addEventListener("keydown", (evt) => {
			if (evt.key !== "Escape" || this.filterEl.value === "") return;
			evt.preventDefault();
			evt.stopPropagation();
			this.setFilter("");
			handlers.onFilter("");
		});
		this.groupingEl = this.el.createEl("select", { cls: "dropdown a2a-grouping", attr: { "aria-label": VIEW_TEXT.groupAgents } });
		for (const option of GROUPINGS) this.groupingEl.createEl("option", { value: option, text: GROUPING_LABELS[option] });
		this.groupingEl.value = grouping;
		this.groupingEl.addEventListener("change", () => {
			const value = this.groupingEl.value;
			if (isGrouping(value)) handlers.onGrouping(value);
		});
		this.compactEl = this.el.createEl("button", { cls: "clickable-icon a2a-compact-toggle", attr: { type: "button", "aria-label": VIEW_TEXT.compactRows, "aria-pressed": "false" } });
		setIcon(this.compactEl, "list");
		this.compactEl.addEventListener("click", () => handlers.onCompact(this.compactEl.getAttribute("aria-pressed") !== "true"));
	}

	setCompact(compact: boolean): void {
		if (this.compactEl.getAttribute("aria-pressed") !== String(compact)) this.compactEl.setAttr("aria-pressed", String(compact));
	}

	setFilter(query: string): void {
		if (this.filterEl.value !== query) this.filterEl.value = query;
	}

	setGrouping(grouping: Grouping): void {
		if (this.groupingEl.value !== grouping) this.groupingEl.value = grouping;
	}
}
