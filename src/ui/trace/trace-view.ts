import { ItemView, Notice, TFile } from "obsidian";
import type { App, Menu, ViewStateResult, WorkspaceLeaf } from "obsidian";
import { tracedMessageAt } from "../../obsidian/active-note";
import type { RelayState } from "../../obsidian/relay-state";
import { bindNoteLinks } from "../note-links";
import { ACTION_NAMES, VIEW_TEXT } from "../strings";
import { TracePanel } from "./trace-panel";

// The trace as a sidebar view, like Backlinks: it shows the conversation of the active message
// note and follows the user from note to note; Show trace opens it on a given trace. It keeps its
// trace id (saved with the workspace) and nothing else but its DOM.

export const VIEW_TYPE_TRACE = "a2a-trace";

interface SavedState {
	traceId?: unknown;
	path?: unknown;
}

export class TraceView extends ItemView {
	private traceId: string | null = null;
	private path: string | null = null;
	private panel: TracePanel | null = null;

	constructor(
		leaf: WorkspaceLeaf,
		private readonly state: RelayState,
		private readonly noteMenu: (menu: Menu, file: TFile) => void,
		private readonly exportTrace: (traceId: string) => void,
	) {
		super(leaf);
	}

	getViewType(): string {
		return VIEW_TYPE_TRACE;
	}

	getDisplayText(): string {
		return VIEW_TEXT.traceTitle;
	}

	getIcon(): string {
		return "git-commit-horizontal";
	}

	getState(): Record<string, unknown> {
		return { ...super.getState(), traceId: this.traceId, path: this.path };
	}

	async setState(state: unknown, result: ViewStateResult): Promise<void> {
		const saved = (typeof state === "object" && state !== null ? state : {}) as SavedState;
		if (typeof saved.traceId === "string") {
			this.traceId = saved.traceId;
			this.path = typeof saved.path === "string" ? saved.path : null;
			await this.draw();
		}
		await super.setState(state, result);
	}

	async onOpen(): Promise<void> {
		this.contentEl.empty();
		this.contentEl.addClass("a2a-trace-view");
		this.panel = new TracePanel(this.app, this, this.contentEl.createDiv({ cls: "a2a-trace-panel" }));
		this.addAction("file-output", ACTION_NAMES.exportTrace, () => {
			if (this.traceId) this.exportTrace(this.traceId);
			else new Notice(VIEW_TEXT.noTraceHere);
		});
		bindNoteLinks(this, this.app, this.state, this.contentEl, { hoverParent: this.leaf, menu: this.noteMenu, missing: (text) => new Notice(text) });
		this.registerEvent(this.app.workspace.on("file-open", (file) => this.follow(file)));
		this.registerEvent(this.state.onChanged(() => void this.draw()));
		// A new theme (light, dark): the diagram is drawn again in its colours.
		this.registerEvent(
			this.app.workspace.on("css-change", () => {
				this.panel?.invalidate();
				void this.draw();
			}),
		);
		const active = this.app.workspace.getActiveFile();
		if (this.traceId === null && active) this.follow(active);
		await this.draw();
	}

	async onClose(): Promise<void> {
		this.panel = null;
	}

	/** Shows the trace of the note opened, when it is a message with one; else keeps the last. */
	private follow(file: TFile | null): void {
		if (!(file instanceof TFile)) return;
		const traced = tracedMessageAt(this.state, file);
		if (!traced?.entry.traceId) return;
		this.traceId = traced.entry.traceId;
		this.path = file.path;
		void this.draw();
		this.app.workspace.requestSaveLayout();
	}

	private async draw(): Promise<void> {
		if (!this.panel) return;
		const entries = this.traceId ? this.state.index().traceTimeline(this.traceId) : [];
		await this.panel.render(this.traceId, entries, this.path);
	}
}

/** Opens the trace view in the right sidebar (revealing it), on a given trace when one is named. */
export async function openTraceView(app: App, target?: { traceId: string; path: string }): Promise<void> {
	const existing = app.workspace.getLeavesOfType(VIEW_TYPE_TRACE)[0];
	const leaf = existing ?? app.workspace.getRightLeaf(false);
	if (!leaf) return;
	await leaf.setViewState({ type: VIEW_TYPE_TRACE, active: true, state: target ? { traceId: target.traceId, path: target.path } : {} });
	await app.workspace.revealLeaf(leaf);
}
