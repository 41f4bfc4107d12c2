import { STALE_FILTER } from "./agent-filter";
import type { AgentRow, RowClock } from "./agent-row";
import { compareStatuses, statusClass } from "./status-style";
import { VIEW_TEXT } from "../strings";

// The counts: how many agents are in each status and how many are stale (each a button that
// filters the list; pressed while it filters), and, at the top of the message flow, the messages
// awaiting an answer, overdue and undelivered (each a button that shows its part of the flow).
// Every chip reads "count words". A button's visible text is its name: no aria-label hides it.

export interface FlowCounts {
	inFlight: number;
	overdue: number;
	dead: number;
}

export class AgentSummary {
	readonly el: HTMLElement;
	private readonly flowEl: HTMLElement;
	private readonly agentsEl: HTMLElement;
	private signature = "";
	private flowSignature = "";

	constructor(
		parent: HTMLElement,
		flowParent: HTMLElement,
		private readonly onPick: (query: string) => void,
		private readonly onFlow: (part: "queues" | "dead") => void,
	) {
		this.el = parent.createDiv({ cls: "a2a-summary-row" });
		this.flowEl = flowParent.createDiv({ cls: "a2a-summary a2a-flow-summary", attr: { role: "group", "aria-label": VIEW_TEXT.flowHeading } });
		this.agentsEl = this.el.createDiv({ cls: "a2a-summary", attr: { role: "group", "aria-label": VIEW_TEXT.agentsPerStatus } });
		this.agentsEl.addEventListener("click", (evt) => {
			const button = (evt.target as HTMLElement).closest<HTMLElement>("[data-filter]");
			if (button) this.onPick(button.getAttribute("data-filter") ?? "");
		});
		this.flowEl.addEventListener("click", (evt) => {
			const button = (evt.target as HTMLElement).closest<HTMLElement>("[data-flow]");
			if (button) this.onFlow(button.getAttribute("data-flow") === "dead" ? "dead" : "queues");
		});
	}

	renderFlow(counts: FlowCounts): void {
		const signature = JSON.stringify(counts);
		if (signature === this.flowSignature) return;
		this.flowSignature = signature;
		this.flowEl.empty();
		const chip = (text: string, key: string, value: number, flow: "queues" | "dead", tone: string) =>
			this.flowEl.createEl("button", { cls: `a2a-count-chip ${tone}${value === 0 ? " a2a-zero" : ""}`, text, attr: { type: "button", "data-flow": flow, "data-count": key, "data-value": String(value) } });
		chip(VIEW_TEXT.inFlightCount(counts.inFlight), "in-flight", counts.inFlight, "queues", "a2a-outcome-delivered");
		chip(VIEW_TEXT.overdueCount(counts.overdue), "overdue", counts.overdue, "queues", "a2a-outcome-timed_out");
		chip(VIEW_TEXT.deadCount(counts.dead), "dead", counts.dead, "dead", "a2a-outcome-rejected");
	}

	/** Rebuilds the counts when they changed (a handful of elements). */
	render(rows: Iterable<AgentRow>, clock: RowClock, filter: string): void {
		const counts = new Map<string, number>();
		let total = 0;
		let stale = 0;
		for (const row of rows) {
			total++;
			counts.set(row.agent.status, (counts.get(row.agent.status) ?? 0) + 1);
			if (row.isStale(clock)) stale++;
		}
		const statuses = [...counts.keys()].sort(compareStatuses);
		const signature = `${total}|${stale}|${filter}|${statuses.map((s) => `${s}=${counts.get(s) ?? 0}`).join(",")}`;
		if (signature === this.signature) return;
		this.signature = signature;
		this.agentsEl.empty();
		if (total === 0) return;
		this.agentsEl.createSpan({ cls: "a2a-count-chip a2a-count-total", text: VIEW_TEXT.agentCount(total), attr: { "data-count": "total", "data-value": String(total) } });
		for (const status of statuses) this.chip(VIEW_TEXT.statusCount(status, counts.get(status) ?? 0), `status:${status}`, statusClass(status), status, counts.get(status) ?? 0, filter);
		if (stale > 0) this.chip(VIEW_TEXT.staleCount(stale), STALE_FILTER, "a2a-count-stale", "stale", stale, filter);
	}

	private chip(text: string, query: string, cls: string, key: string, count: number, filter: string): void {
		this.agentsEl.createEl("button", {
			cls: `a2a-count-chip ${cls}`,
			text,
			attr: { type: "button", "data-filter": query, "data-count": key, "data-value": String(count), "aria-pressed": String(filter.trim() === query) },
		});
	}
}
