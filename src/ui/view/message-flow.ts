import type { GroupQueue } from "../../core/queues";
import { noteLink } from "../note-links";
import { COMMAND_NAMES, VIEW_TEXT } from "../strings";
import { setHidden, setTextIfChanged } from "./dom-text";
import { actionButton, renderDeadLetters, renderDecisions } from "./flow-lists";
import type { FlowGroup, FlowState } from "./flow-state";

// The message flow section: which device routes, per-group queues, dead letters, the latest
// routing decisions and the registry's problems. Each part is rebuilt only when what it shows
// changed (while messages flow, the queues and decisions change, the dead letters seldom); the
// collapsible parts keep their open or closed state.

const QUEUE_COLUMNS: { key: keyof Pick<GroupQueue, "inbox" | "outbox" | "inFlight" | "overdue">; label: string; count: string }[] = [
	{ key: "inbox", label: VIEW_TEXT.queueColumns.inbox, count: "inbox" },
	{ key: "outbox", label: VIEW_TEXT.queueColumns.outbox, count: "outbox" },
	{ key: "inFlight", label: VIEW_TEXT.queueColumns.inFlight, count: "in-flight" },
	{ key: "overdue", label: VIEW_TEXT.queueColumns.overdue, count: "overdue" },
];

export class MessageFlowPanel {
	readonly el: HTMLElement;
	/** The message counts (awaiting an answer, overdue, undelivered): filled by AgentSummary. */
	readonly countsEl: HTMLElement;
	private readonly routerEl: HTMLElement;
	private readonly emptyEl: HTMLElement;
	private readonly errorsEl: HTMLElement;
	private readonly queuesEl: HTMLElement;
	readonly deadEl: HTMLDetailsElement;
	private readonly deadListEl: HTMLElement;
	private readonly recentEl: HTMLDetailsElement;
	private readonly recentListEl: HTMLElement;
	/** What each part last showed, so that a relay change rebuilds only the parts it changed. */
	private readonly shown = new Map<string, string>();

	constructor(parent: HTMLElement) {
		this.el = parent.createDiv({ cls: "a2a-flow" });
		this.el.createEl("h4", { cls: "a2a-heading", text: VIEW_TEXT.flowHeading });
		this.countsEl = this.el.createDiv({ cls: "a2a-flow-counts" });
		this.routerEl = this.el.createDiv({ cls: "a2a-router-status" });
		this.emptyEl = this.el.createDiv({ cls: "a2a-empty a2a-flow-empty a2a-hidden" });
		this.errorsEl = this.el.createDiv({ cls: "a2a-registry-errors a2a-hidden", attr: { role: "alert" } });
		this.queuesEl = this.el.createDiv({ cls: "a2a-queues" });
		this.deadEl = this.el.createEl("details", { cls: "a2a-dead-letters" });
		const deadSummary = this.deadEl.createEl("summary", { cls: "a2a-section-summary" });
		deadSummary.createSpan({ cls: "a2a-section-title", text: VIEW_TEXT.deadLetters });
		deadSummary.createSpan({ cls: "a2a-section-count a2a-dead-count" });
		this.deadListEl = this.deadEl.createDiv({ cls: "a2a-dead-list" });
		this.recentEl = this.el.createEl("details", { cls: "a2a-recent", attr: { open: "" } });
		const recentSummary = this.recentEl.createEl("summary", { cls: "a2a-section-summary" });
		recentSummary.createSpan({ cls: "a2a-section-title", text: VIEW_TEXT.latestDecisions });
		this.recentListEl = this.recentEl.createDiv({ cls: "a2a-recent-list" });
	}

	render(state: FlowState, now: number): void {
		this.part("router", [state.router, state.leaseConflict], () => this.renderRouter(state));
		this.part("empty", [state.registryExists, state.groups.length, state.registryPath], () => this.renderEmpty(state));
		this.part("errors", [state.registryErrors, state.registryPath], () => this.renderErrors(state));
		this.part("queues", state.groups, () => this.renderQueues(state.groups));
		// The dead letters' ages ("3 min ago") change with the clock: the minute is part of what they show.
		this.part("dead", [state.deadLetterCount, state.deadLetters, Math.floor(now / 60_000)], () => {
			this.deadEl.setAttr("data-count", String(state.deadLetterCount));
			this.deadEl.toggleClass("a2a-has-dead", state.deadLetterCount > 0);
			const countEl = this.deadEl.querySelector<HTMLElement>(".a2a-dead-count");
			if (countEl) setTextIfChanged(countEl, String(state.deadLetterCount));
			renderDeadLetters(this.deadListEl, state.deadLetterCount, state.deadLetters, now);
		});
		// The rows' ages change with the clock too.
		this.part("recent", [state.recent, state.registryExists, Math.floor(now / 60_000)], () => renderDecisions(this.recentListEl, state.recent, state.registryExists, now));
	}

	private part(name: string, shows: unknown, render: () => void): void {
		const signature = JSON.stringify(shows);
		if (this.shown.get(name) === signature) return;
		this.shown.set(name, signature);
		render();
	}

	/** Which device routes, and a warning when two devices both believe they do. */
	private renderRouter(state: FlowState): void {
		this.routerEl.empty();
		const { router } = state;
		const holder = router.holderName;
		let text: string = VIEW_TEXT.noRouter;
		if (router.held) text = VIEW_TEXT.routesHere(holder ?? "");
		else if (holder) text = VIEW_TEXT.routesElsewhere(holder);
		else if (router.standby) text = router.standby;
		this.routerEl.createSpan({ cls: "a2a-router-text", text: `${VIEW_TEXT.router}: ${text}` });
		this.routerEl.toggleClass("is-routing", router.held);
		if (state.leaseConflict) this.routerEl.createDiv({ cls: "a2a-router-warning", text: VIEW_TEXT.twoRouters, attr: { role: "alert" } });
	}

	private renderEmpty(state: FlowState): void {
		this.emptyEl.empty();
		if (!state.registryExists) {
			this.emptyEl.createDiv({ text: VIEW_TEXT.noRegistry });
			actionButton(this.emptyEl, "init-vault", COMMAND_NAMES.initVault, "mod-cta");
		} else if (state.groups.length === 0) {
			this.emptyEl.createDiv({ text: VIEW_TEXT.noGroups(state.registryPath) });
			actionButton(this.emptyEl, "open-settings", VIEW_TEXT.openSettings);
		}
		setHidden(this.emptyEl, state.registryExists && state.groups.length > 0);
	}

	private renderErrors(state: FlowState): void {
		this.errorsEl.empty();
		setHidden(this.errorsEl, state.registryErrors.length === 0);
		if (state.registryErrors.length === 0) return;
		const head = this.errorsEl.createDiv({ cls: "a2a-registry-errors-title" });
		head.appendText(VIEW_TEXT.registryProblems(state.registryErrors.length));
		noteLink(head, { path: state.registryPath }, state.registryPath);
		head.appendText(VIEW_TEXT.registryProblemsAfter);
		const list = this.errorsEl.createEl("ul", { cls: "a2a-registry-error-list" });
		for (const error of state.registryErrors) list.createEl("li", { text: error });
	}

	/** The count cells of the queue table, by group and column: counts change in place, the table is rebuilt only for other groups. */
	private queueCells = new Map<string, Map<string, HTMLElement>>();

	/** The groups (and remote agents' addresses) the queue table was built for. */
	private queueTableKey = "";

	private renderQueues(groups: FlowGroup[]): void {
		setHidden(this.queuesEl, groups.length === 0);
		const key = groups.map((g) => `${g.group} ${g.url ?? ""}`).join("\n");
		if (key !== this.queueTableKey) this.buildQueueTable(groups);
		this.queueTableKey = key;
		for (const group of groups) {
			const cells = this.queueCells.get(group.group);
			for (const column of QUEUE_COLUMNS) {
				const td = cells?.get(column.key);
				if (!td) continue;
				const value = group[column.key];
				setTextIfChanged(td, String(value));
				td.toggleClass("a2a-zero", value === 0);
				td.toggleClass("a2a-overdue", value !== 0 && column.key === "overdue");
			}
		}
	}

	private buildQueueTable(groups: FlowGroup[]): void {
		this.queuesEl.empty();
		this.queueCells = new Map();
		if (groups.length === 0) return;
		const table = this.queuesEl.createEl("table", { cls: "a2a-queue-table" });
		const headRow = table.createEl("thead").createEl("tr");
		headRow.createEl("th", { text: VIEW_TEXT.queueColumns.group, attr: { scope: "col" } });
		for (const column of QUEUE_COLUMNS) headRow.createEl("th", { cls: "a2a-num", text: column.label, attr: { scope: "col" } });
		const body = table.createEl("tbody");
		for (const group of groups) {
			const tr = body.createEl("tr", { attr: { "data-group": group.group } });
			const th = tr.createEl("th", { cls: "a2a-queue-group", text: group.group, attr: { scope: "row" } });
			if (group.url !== undefined) {
				// A remote group: its inbox holds the requests forwarded to its agent, in flight there.
				tr.addClass("a2a-remote-group");
				th.createDiv({ cls: "a2a-queue-url", text: group.url, attr: { title: VIEW_TEXT.remoteGroupTitle } });
			}
			const cells = new Map<string, HTMLElement>();
			for (const column of QUEUE_COLUMNS) cells.set(column.key, tr.createEl("td", { cls: "a2a-num", attr: { "data-count": column.count } }));
			this.queueCells.set(group.group, cells);
		}
	}
}
