import type { AgentRow, RowClock } from "./agent-row";
import { compareStatuses, statusClass } from "./status-style";

// The counts at the top: how many agents are in each status, and how many are stale. A count is a
// button that filters the list to that status.

export class AgentSummary {
	readonly el: HTMLElement;
	private signature = "";

	constructor(parent: HTMLElement, private readonly onPick: (query: string) => void) {
		this.el = parent.createDiv({ cls: "a2a-summary", attr: { role: "group", "aria-label": "Agents per status" } });
		this.el.addEventListener("click", (evt) => {
			const button = (evt.target as HTMLElement).closest<HTMLElement>("[data-filter]");
			if (button) this.onPick(button.getAttribute("data-filter") ?? "");
		});
	}

	/** Rebuilds the counts when they changed (a handful of elements). */
	render(rows: Iterable<AgentRow>, clock: RowClock): void {
		const counts = new Map<string, number>();
		let total = 0;
		let stale = 0;
		for (const row of rows) {
			total++;
			counts.set(row.agent.status, (counts.get(row.agent.status) ?? 0) + 1);
			if (row.isStale(clock)) stale++;
		}
		const statuses = [...counts.keys()].sort(compareStatuses);
		const signature = `${total}|${stale}|${statuses.map((s) => `${s}=${counts.get(s) ?? 0}`).join(",")}`;
		if (signature === this.signature) return;
		this.signature = signature;
		this.el.empty();
		if (total === 0) return;
		this.chip(`${total} ${total === 1 ? "agent" : "agents"}`, "", "a2a-count-total", "total", total);
		for (const status of statuses) {
			const n = counts.get(status) ?? 0;
			this.chip(`${status} ${n}`, `status:${status}`, statusClass(status), status, n);
		}
		if (stale > 0) this.chip(`stale ${stale}`, "", "a2a-count-stale", "stale", stale);
	}

	private chip(text: string, filter: string, cls: string, key: string, count: number): void {
		const attr = { "data-count": key, "data-value": String(count) };
		if (filter === "") {
			this.el.createSpan({ cls: `a2a-count-chip ${cls}`, text, attr });
			return;
		}
		this.el.createEl("button", {
			cls: `a2a-count-chip ${cls}`,
			text,
			attr: { ...attr, type: "button", "data-filter": filter, "aria-label": `Show only ${key} agents` },
		});
	}
}
