import type { AgentEntry } from "../../obsidian/agent-store";
import { AgentRow } from "./agent-row";
import type { RowClock } from "./agent-row";
import { isStale } from "../../core/agent";
import type { AgentRecord } from "../../core/agent";
import { matchesFilter, parseFilter } from "./agent-filter";
import type { AgentFilter } from "./agent-filter";
import { compareAgents, compareSections, sectionKey, sectionTitle } from "./agent-sections";
import type { Grouping } from "./agent-sections";
import { setHidden, setTextIfChanged } from "./dom-text";

// The agent rows, in collapsible sections (by group or by status), kept in a Map from note path to
// row. A change to some agents touches only their rows: a row is updated in place, and moved only
// when its section or its place in the order changed.

interface Section {
	key: string;
	el: HTMLDetailsElement;
	titleEl: HTMLElement;
	countEl: HTMLElement;
	listEl: HTMLElement;
	/** Ordered by compareAgents, like the DOM. */
	rows: AgentRow[];
	shown: number;
}

export class AgentList {
	readonly el: HTMLElement;
	private readonly rows = new Map<string, AgentRow>();
	private readonly placed = new Map<AgentRow, Section>();
	private readonly sections = new Map<string, Section>();
	/** Sections in display order, like the DOM. */
	private readonly order: Section[] = [];
	private grouping: Grouping;
	private filter: AgentFilter;
	private shownCount = 0;
	private query: string;
	/** The clock of the latest render or tick (staleness depends on it). */
	private clock: RowClock | null = null;

	constructor(parent: HTMLElement, grouping: Grouping, query: string) {
		this.el = parent.createDiv({ cls: "a2a-agent-list" });
		this.grouping = grouping;
		this.query = query;
		this.filter = parseFilter(query);
		// A compact row opens on a click anywhere but its links, or on its toggle button.
		this.el.addEventListener("click", (evt) => {
			const target = evt.target instanceof Element ? evt.target : null;
			const rowEl = target?.closest<HTMLElement>(".a2a-agent-row");
			if (!target || !rowEl || (target.closest("a, button, input, select") && !target.closest("[data-row-toggle]"))) return;
			if (!target.closest("[data-row-toggle]") && !this.el.classList.contains("a2a-compact")) return;
			const row = this.rows.get(rowEl.getAttribute("data-path") ?? "");
			row?.setExpanded(!row.expanded);
		});
	}

	/** One line per agent (each opens on a click), or every row with its details. */
	setCompact(compact: boolean): void {
		if (this.el.classList.contains("a2a-compact") !== compact) this.el.toggleClass("a2a-compact", compact);
	}

	get size(): number {
		return this.rows.size;
	}

	/** Agents the filter lets through. */
	get shown(): number {
		return this.shownCount;
	}

	agents(): IterableIterator<AgentRow> {
		return this.rows.values();
	}

	/** Builds every row from scratch (the first render, or after the agent folders changed). */
	renderAll(agents: AgentEntry[], clock: RowClock): void {
		this.clock = clock;
		this.el.empty();
		this.rows.clear();
		this.placed.clear();
		this.sections.clear();
		this.order.length = 0;
		this.shownCount = 0;
		const sorted = agents.slice().sort((a, b) => compareSections(sectionKey(a, this.grouping), sectionKey(b, this.grouping), this.grouping) || compareAgents(a, b));
		for (const agent of sorted) {
			const row = new AgentRow(agent, clock);
			this.rows.set(agent.path, row);
			const section = this.sectionFor(sectionKey(agent, this.grouping));
			section.rows.push(row);
			section.listEl.appendChild(row.el);
			this.placed.set(row, section);
			this.showRow(row, section, this.matches(agent), true);
		}
		for (const section of this.order) this.refreshSection(section);
	}

	/** Updates the rows of these paths only; returns how many rows were added, updated or removed. */
	applyChanges(paths: Iterable<string>, lookup: (path: string) => AgentEntry | undefined, clock: RowClock): number {
		this.clock = clock;
		const touched = new Set<Section>();
		let count = 0;
		for (const path of paths) {
			const agent = lookup(path);
			const row = this.rows.get(path);
			if (!agent) {
				if (row) {
					touched.add(this.remove(row));
					this.rows.delete(path);
					count++;
				}
				continue;
			}
			count++;
			if (!row) {
				const created = new AgentRow(agent, clock);
				this.rows.set(path, created);
				touched.add(this.insert(created, this.matches(agent)));
				continue;
			}
			const before = row.agent;
			row.update(agent, clock);
			const section = this.placed.get(row) as Section;
			const match = this.matches(agent);
			if (sectionKey(agent, this.grouping) !== section.key || compareAgents(before, agent) !== 0) {
				touched.add(this.remove(row));
				touched.add(this.insert(row, match));
			} else if (this.showRow(row, section, match, false)) touched.add(section);
		}
		for (const section of touched) this.refreshSection(section);
		return count;
	}

	setGrouping(grouping: Grouping): void {
		if (grouping === this.grouping) return;
		this.grouping = grouping;
		const rows = [...this.rows.values()];
		for (const section of this.order) section.el.detach();
		this.placed.clear();
		this.sections.clear();
		this.order.length = 0;
		this.shownCount = 0;
		rows.sort((a, b) => compareSections(sectionKey(a.agent, grouping), sectionKey(b.agent, grouping), grouping) || compareAgents(a.agent, b.agent));
		for (const row of rows) {
			const section = this.sectionFor(sectionKey(row.agent, grouping));
			section.rows.push(row);
			section.listEl.appendChild(row.el);
			this.placed.set(row, section);
			this.showRow(row, section, this.matches(row.agent), true);
		}
		for (const section of this.order) this.refreshSection(section);
	}

	private matches(agent: AgentRecord): boolean {
		const clock = this.clock;
		return matchesFilter(agent, this.filter, (a) => clock !== null && isStale(a, clock.now, clock.staleLimitMs));
	}

	setFilter(query: string): void {
		this.query = query;
		this.filter = parseFilter(query);
		for (const row of this.rows.values()) {
			const section = this.placed.get(row) as Section;
			this.showRow(row, section, this.matches(row.agent), false);
		}
		for (const section of this.order) this.refreshSection(section);
	}

	/** The clock moved on: ages and stale markers. */
	tick(clock: RowClock): void {
		this.clock = clock;
		for (const row of this.rows.values()) row.tick(clock);
		// Agents turn stale as time passes: `is:stale` is applied again.
		if (this.filter.stale) this.setFilter(this.query);
	}

	private insert(row: AgentRow, match: boolean): Section {
		const section = this.sectionFor(sectionKey(row.agent, this.grouping));
		const at = lowerBound(section.rows, (other) => compareAgents(other.agent, row.agent) < 0);
		section.listEl.insertBefore(row.el, section.rows[at]?.el ?? null);
		section.rows.splice(at, 0, row);
		this.placed.set(row, section);
		this.showRow(row, section, match, true);
		return section;
	}

	private remove(row: AgentRow): Section {
		const section = this.placed.get(row) as Section;
		const i = section.rows.indexOf(row);
		if (i >= 0) section.rows.splice(i, 1);
		if (!row.el.hasClass("a2a-hidden")) {
			section.shown--;
			this.shownCount--;
		}
		row.el.detach();
		this.placed.delete(row);
		return section;
	}

	/** Applies the filter to one row; true when its visibility changed. */
	private showRow(row: AgentRow, section: Section, match: boolean, fresh: boolean): boolean {
		const wasShown = !fresh && !row.el.hasClass("a2a-hidden");
		if (!fresh && wasShown === match) return false;
		setHidden(row.el, !match);
		const delta = (match ? 1 : 0) - (wasShown ? 1 : 0);
		section.shown += delta;
		this.shownCount += delta;
		return true;
	}

	private sectionFor(key: string): Section {
		const existing = this.sections.get(key);
		if (existing) return existing;
		const at = lowerBound(this.order, (other) => compareSections(other.key, key, this.grouping) < 0);
		const el = createEl("details", { cls: "a2a-agent-section", attr: { open: "", "data-section": key } });
		const summary = el.createEl("summary", { cls: "a2a-section-summary" });
		const titleEl = summary.createSpan({ cls: "a2a-section-title", text: sectionTitle(key, this.grouping) });
		const countEl = summary.createSpan({ cls: "a2a-section-count" });
		const listEl = el.createDiv({ cls: "a2a-section-rows", attr: { role: "list" } });
		this.el.insertBefore(el, this.order[at]?.el ?? null);
		const section: Section = { key, el, titleEl, countEl, listEl, rows: [], shown: 0 };
		this.order.splice(at, 0, section);
		this.sections.set(key, section);
		return section;
	}

	private refreshSection(section: Section): void {
		if (section.rows.length === 0) {
			section.el.detach();
			this.sections.delete(section.key);
			const i = this.order.indexOf(section);
			if (i >= 0) this.order.splice(i, 1);
			return;
		}
		setTextIfChanged(section.countEl, String(section.shown));
		setHidden(section.el, section.shown === 0);
	}
}

/** The first index whose item is not before the new one (items are sorted). */
function lowerBound<T>(items: readonly T[], before: (item: T) => boolean): number {
	let lo = 0;
	let hi = items.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (before(items[mid])) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}
