import { ItemView } from "obsidian";
import type { App, ViewStateResult, WorkspaceLeaf } from "obsidian";
import type { AgentStore } from "../obsidian/agent-store";
import type { RelayState } from "../obsidian/relay-state";
import type { SettingsStore } from "../obsidian/settings-store";
import { AgentList } from "./view/agent-list";
import type { RowClock } from "./view/agent-row";
import { isGrouping } from "./view/agent-sections";
import type { Grouping } from "./view/agent-sections";
import { AgentSummary } from "./view/agent-summary";
import { setHidden, setTextIfChanged } from "./view/dom-text";
import { readFlowState } from "./view/flow-state";
import { MessageFlowPanel } from "./view/message-flow";
import { handleNoteLinks } from "./view/note-links";
import { RenderBatcher } from "./view/render-batcher";
import type { Batch } from "./view/render-batcher";
import { Toolbar } from "./view/toolbar";

// The agent status sidebar: agents (lifecycle, progress, last action, staleness) and the message
// flow, live. It renders what the agent store and the relay computed and keeps nothing else but
// its DOM, the filter and the grouping (which Obsidian saves with the workspace).

export const VIEW_TYPE_AGENT_STATUS = "a2a-agent-status";

/** How often ages ("2 min ago") and stale markers are refreshed while the view is open. */
const TICK_MS = 5000;

interface SavedState {
	grouping?: unknown;
	filter?: unknown;
}

export class AgentStatusView extends ItemView {
	private grouping: Grouping = "group";
	private filter = "";
	private list: AgentList | null = null;
	private summary: AgentSummary | null = null;
	private toolbar: Toolbar | null = null;
	private flow: MessageFlowPanel | null = null;
	private emptyEl: HTMLElement | null = null;
	private readonly batcher: RenderBatcher;

	constructor(
		leaf: WorkspaceLeaf,
		private readonly state: RelayState,
		private readonly agents: Pick<AgentStore, "all" | "get" | "folders" | "onChanged">,
		private readonly settings: SettingsStore,
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
		return "Agent status";
	}

	getIcon(): string {
		return "radio-tower";
	}

	getState(): Record<string, unknown> {
		return { ...super.getState(), grouping: this.grouping, filter: this.filter };
	}

	async setState(state: unknown, result: ViewStateResult): Promise<void> {
		const saved = (typeof state === "object" && state !== null ? state : {}) as SavedState;
		if (isGrouping(saved.grouping)) this.setGrouping(saved.grouping, false);
		if (typeof saved.filter === "string") this.setFilter(saved.filter, false);
		await super.setState(state, result);
	}

	async onOpen(): Promise<void> {
		const root = this.contentEl;
		root.empty();
		root.addClass("a2a-status-view");
		const agentsEl = root.createDiv({ cls: "a2a-agents" });
		agentsEl.createEl("h4", { cls: "a2a-heading", text: "Agents" });
		this.summary = new AgentSummary(agentsEl, (query) => this.setFilter(this.filter === query ? "" : query, true));
		this.toolbar = new Toolbar(agentsEl, this.filter, this.grouping, {
			onFilter: (query) => this.setFilter(query, true),
			onGrouping: (grouping) => this.setGrouping(grouping, true),
		});
		this.emptyEl = agentsEl.createDiv({ cls: "a2a-empty a2a-agents-empty a2a-hidden" });
		this.list = new AgentList(agentsEl, this.grouping, this.filter);
		this.flow = new MessageFlowPanel(root);
		handleNoteLinks(this, this.app, root);

		this.registerEvent(this.agents.onChanged((paths) => this.batcher.agents(paths)));
		this.registerEvent(this.state.onChanged(() => this.batcher.relayChanged()));
		// Shown again (a sidebar expanded, its tab picked): render what changed meanwhile.
		this.registerEvent(this.app.workspace.on("layout-change", () => this.batcher.resume()));
		this.registerEvent(this.app.workspace.on("active-leaf-change", () => this.batcher.resume()));
		this.registerInterval(window.setInterval(() => this.tick(), TICK_MS));

		this.batcher.everything();
		this.batcher.flushNow();
	}

	async onClose(): Promise<void> {
		this.batcher.cancel();
		this.list = null;
		this.summary = null;
		this.toolbar = null;
		this.flow = null;
		this.emptyEl = null;
	}

	onResize(): void {
		this.batcher.resume();
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
		if (batch.relay) this.flow?.render(readFlowState(this.app, this.state));
	}

	private renderCounts(clock: RowClock): void {
		const list = this.list;
		if (!list) return;
		this.summary?.render(list.agents(), clock);
		const empty = this.emptyEl;
		if (!empty) return;
		if (list.size === 0) {
			const folders = this.agents.folders().join(", ");
			setTextIfChanged(empty, `No agents yet: run Create agent note, or write a note with a status field in ${folders}.`);
			setHidden(empty, false);
		} else if (list.shown === 0) {
			setTextIfChanged(empty, `No agent matches "${this.filter.trim()}". Press Escape in the filter box to show every agent.`);
			setHidden(empty, false);
		} else setHidden(empty, true);
	}

	private tick(): void {
		if (!this.list || !this.containerEl.isShown()) return;
		// Waiting changes first (they carry the same clock), then every age and stale marker.
		this.batcher.flushNow();
		const clock = this.clock();
		this.list.tick(clock);
		this.summary?.render(this.list.agents(), clock);
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
