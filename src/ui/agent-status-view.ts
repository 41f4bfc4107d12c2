import { ItemView, Notice } from "obsidian";
import type { App, ViewStateResult, WorkspaceLeaf } from "obsidian";
import type { AgentStore } from "../obsidian/agent-store";
import type { RelayState } from "../obsidian/relay-state";
import type { SettingsStore } from "../obsidian/settings-store";
import { bindNoteLinks } from "./note-links";
import { ACTION_NAMES, COMMAND_NAMES, VIEW_TEXT } from "./strings";
import { AgentList } from "./view/agent-list";
import type { RowClock } from "./view/agent-row";
import { isGrouping } from "./view/agent-sections";
import type { Grouping } from "./view/agent-sections";
import { AgentSummary } from "./view/agent-summary";
import { setHidden } from "./view/dom-text";
import { actionButton } from "./view/flow-lists";
import { readFlowState } from "./view/flow-state";
import type { DecisionRow } from "./view/flow-state";
import { LeaseWatch } from "./view/lease-watch";
import { readLogTail } from "./view/log-tail";
import { MessageFlowPanel } from "./view/message-flow";
import { RenderBatcher } from "./view/render-batcher";
import type { Batch } from "./view/render-batcher";
import { compactRows, isDensity } from "./view/row-density";
import type { Density } from "./view/row-density";
import { Toolbar } from "./view/toolbar";
import { runViewAction } from "./view/view-actions";
import type { ViewActions } from "./view/view-actions";
import { WelcomeCard } from "./view/welcome-card";

// The agent status sidebar: agents (lifecycle, progress, last action, staleness) and the message
// flow, live. It renders what the agent store and the relay computed and keeps nothing else but
// its DOM, the filter and the grouping (which Obsidian saves with the workspace). What it can do
// (compose, route, retry, a note's actions) it is handed as callbacks: it holds no plugin part.

export const VIEW_TYPE_AGENT_STATUS = "a2a-agent-status";

/** How often ages ("2 minutes ago") and stale markers are refreshed while the view is open. */
const TICK_MS = 5000;
const LOG_ROWS = 10;

interface SavedState {
	grouping?: unknown;
	filter?: unknown;
	density?: unknown;
}

export class AgentStatusView extends ItemView {
	private grouping: Grouping = "group";
	private filter = "";
	private density: Density = "auto";
	private list: AgentList | null = null;
	private summary: AgentSummary | null = null;
	private toolbar: Toolbar | null = null;
	private flow: MessageFlowPanel | null = null;
	private emptyEl: HTMLElement | null = null;
	private agentsEl: HTMLElement | null = null;
	private welcome: WelcomeCard | null = null;
	/** What the first-minute checklist needs from the message flow: a registry, a message seen. */
	private firstSteps = { folders: true, message: true };
	private logRows: DecisionRow[] = [];
	private readonly leaseWatch = new LeaseWatch();
	private readonly batcher: RenderBatcher;

	constructor(
		leaf: WorkspaceLeaf,
		private readonly state: RelayState,
		private readonly agents: Pick<AgentStore, "all" | "get" | "folders" | "onChanged">,
		private readonly settings: SettingsStore,
		private readonly actions: ViewActions,
	) {
		super(leaf);
		this.batcher = new RenderBatcher(
			() => this.containerEl.win,
			() => this.containerEl.isShown(),
			(batch) => this.render(batch),
		);
	}

	getViewType(): string {
		return VIEW_TYPE_AGENT_STATUS;
	}

	getDisplayText(): string {
		return VIEW_TEXT.statusTitle;
	}

	getIcon(): string {
		return "radio-tower";
	}

	getState(): Record<string, unknown> {
		return { ...super.getState(), grouping: this.grouping, filter: this.filter, density: this.density };
	}

	async setState(state: unknown, result: ViewStateResult): Promise<void> {
		const saved = (typeof state === "object" && state !== null ? state : {}) as SavedState;
		if (isGrouping(saved.grouping)) this.setGrouping(saved.grouping, false);
		if (typeof saved.filter === "string") this.setFilter(saved.filter, false);
		if (isDensity(saved.density)) {
			this.density = saved.density;
			this.applyDensity();
		}
		await super.setState(state, result);
	}

	async onOpen(): Promise<void> {
		this.addAction("send", ACTION_NAMES.routeNow, () => this.actions.routeNow());
		this.addAction("mail-plus", ACTION_NAMES.compose, () => this.actions.compose());
		const root = this.contentEl;
		root.empty();
		root.addClass("a2a-status-view");
		this.welcome = new WelcomeCard(root);
		const agentsEl = (this.agentsEl = root.createDiv({ cls: "a2a-agents" }));
		const flow = (this.flow = new MessageFlowPanel(root));
		agentsEl.createEl("h4", { cls: "a2a-heading", text: VIEW_TEXT.agentsHeading });
		// The filter first (in tab order too), then the counts that filter by a click.
		this.toolbar = new Toolbar(agentsEl, this.filter, this.grouping, {
			onFilter: (query) => this.setFilter(query, true),
			onGrouping: (grouping) => this.setGrouping(grouping, true),
			onCompact: (compact) => {
				this.density = compact ? "compact" : "detailed";
				this.applyDensity();
				this.app.workspace.requestSaveLayout();
			},
		});
		this.summary = new AgentSummary(agentsEl, flow.countsEl, (query) => this.setFilter(this.filter.trim() === query ? "" : query, true), (part) => this.showFlow(part));
		this.emptyEl = agentsEl.createDiv({ cls: "a2a-empty a2a-agents-empty a2a-hidden" });
		this.list = new AgentList(agentsEl, this.grouping, this.filter);
		bindNoteLinks(this, this.app, this.state, root, { hoverParent: this.leaf, menu: (menu, file) => this.actions.noteMenu(menu, file), missing: (text) => new Notice(text) });
		this.registerDomEvent(root, "click", (evt) => runViewAction(evt, this.app, this.state, this.actions, () => this.setFilter("", true)));

		this.registerEvent(this.agents.onChanged((paths) => this.batcher.agents(paths)));
		this.registerEvent(this.state.onChanged(() => this.batcher.relayChanged()));
		// Shown again (a sidebar expanded, its tab picked): render what changed meanwhile.
		this.registerEvent(this.app.workspace.on("layout-change", () => this.batcher.resume()));
		this.registerEvent(this.app.workspace.on("active-leaf-change", () => this.batcher.resume()));
		this.registerInterval(window.setInterval(() => this.tick(), TICK_MS));

		this.batcher.everything();
		this.batcher.flushNow();
		void this.readLog();
	}

	async onClose(): Promise<void> {
		this.batcher.cancel();
		this.list = null;
		this.summary = null;
		this.toolbar = null;
		this.flow = null;
		this.emptyEl = null;
		this.agentsEl = null;
		this.welcome = null;
	}

	onResize(): void {
		this.batcher.resume();
	}

	/** The routing log's latest rows, listed until this session routes something. */
	private async readLog(): Promise<void> {
		this.logRows = await readLogTail(this.app, this.state, LOG_ROWS);
		if (this.logRows.length > 0) this.batcher.relayChanged();
	}

	/** A flow count was picked: open and show its part of the message flow. */
	private showFlow(part: "queues" | "dead"): void {
		const flow = this.flow;
		if (!flow) return;
		const target = part === "dead" ? flow.deadEl : (flow.el.querySelector<HTMLElement>(".a2a-queues") ?? flow.el);
		if (part === "dead") flow.deadEl.open = true;
		target.scrollIntoView({ block: "nearest" });
		target.querySelector<HTMLElement>("summary, a, button")?.focus();
	}

	private clock(): RowClock {
		return { now: Date.now(), staleLimitMs: this.settings.current.staleMinutes * 60_000 };
	}

	private render(batch: Batch): void {
		const list = this.list;
		if (!list) return;
		const clock = this.clock();
		const agents = this.agents;
		if (batch.all) list.renderAll(agents.all(), clock);
		else if (batch.paths.size > 0) list.applyChanges(batch.paths, (path) => agents.get(path), clock);
		if (batch.all || batch.paths.size > 0) this.renderCounts(clock);
		if (batch.relay) this.renderFlow(clock.now);
	}

	private renderFlow(now: number): void {
		const flowState = readFlowState(this.app, this.state, this.logRows);
		if (this.leaseWatch.observe(flowState.router, now)) flowState.leaseConflict = true;
		this.flow?.render(flowState, now);
		this.summary?.renderFlow({ inFlight: flowState.inFlight, overdue: flowState.overdue, dead: flowState.deadLetterCount });
		const message = this.state.index().size > 0 || flowState.recent.length > 0 || flowState.deadLetterCount > 0;
		this.firstSteps = { folders: flowState.registryExists, message };
		if (this.flow) setHidden(this.flow.el, !flowState.registryExists);
		this.renderWelcome();
	}

	/** The first-minute card, while a step of it is left; the empty agent list hides behind it. */
	private renderWelcome(): void {
		const size = this.list?.size ?? 0;
		const shown = this.welcome?.render({ ...this.firstSteps, agent: size > 0 }) ?? false;
		if (this.agentsEl) setHidden(this.agentsEl, shown && size === 0);
	}

	private renderCounts(clock: RowClock): void {
		const list = this.list;
		if (!list) return;
		this.summary?.render(list.agents(), clock, this.filter);
		const empty = this.emptyEl;
		if (!empty) return;
		empty.empty();
		if (list.size === 0) {
			empty.createDiv({ text: VIEW_TEXT.noAgents(this.agents.folders().join(", ")) });
			actionButton(empty, "new-agent", COMMAND_NAMES.newAgent);
		} else if (list.shown === 0) {
			empty.createDiv({ text: VIEW_TEXT.noAgentMatches(this.filter.trim()) });
			actionButton(empty, "clear-filter", VIEW_TEXT.showAllAgents);
		}
		setHidden(empty, list.size > 0 && list.shown > 0);
		this.applyDensity();
		this.renderWelcome();
	}

	private applyDensity(): void {
		const compact = compactRows(this.density, this.list?.size ?? 0);
		this.list?.setCompact(compact);
		this.toolbar?.setCompact(compact);
	}

	private tick(): void {
		if (!this.list || !this.containerEl.isShown()) return;
		// Waiting changes first (they carry the same clock), then every age and stale marker.
		this.batcher.flushNow();
		const clock = this.clock();
		this.list.tick(clock);
		this.summary?.render(this.list.agents(), clock, this.filter);
		this.renderFlow(clock.now);
	}

	private setFilter(query: string, save: boolean): void {
		if (query === this.filter) return;
		this.filter = query;
		this.toolbar?.setFilter(query);
		if (this.list) {
			this.list.setFilter(query);
			this.renderCounts(this.clock());
		}
		if (save) this.app.workspace.requestSaveLayout();
	}

	private setGrouping(grouping: Grouping, save: boolean): void {
		if (grouping === this.grouping) return;
		this.grouping = grouping;
		this.toolbar?.setGrouping(grouping);
		this.list?.setGrouping(grouping);
		if (save) this.app.workspace.requestSaveLayout();
	}
}

/**
 * Opens the view in the right sidebar, or reveals it when it is already open (loading it when it
 * is deferred). Does nothing when the workspace has no right sidebar leaf to give.
 */
export async function openAgentStatus(app: App): Promise<void> {
	const existing = app.workspace.getLeavesOfType(VIEW_TYPE_AGENT_STATUS)[0];
	const leaf = existing ?? app.workspace.getRightLeaf(false);
	if (!leaf) return;
	if (!existing) await leaf.setViewState({ type: VIEW_TYPE_AGENT_STATUS, active: true });
	await app.workspace.revealLeaf(leaf);
}
