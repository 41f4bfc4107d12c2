/**
 * Workspace and WorkspaceLeaf. What it copies from Obsidian:
 * - onLayoutReady callbacks wait until the host declares the layout ready (async if already ready);
 * - getRightLeaf/getLeftLeaf may return null (configurable);
 * - deferred views (1.7.2+): a leaf can hold a placeholder view that is not an instance of the
 *   registered class until loadIfDeferred() or revealLeaf() loads it;
 * - a view is built by the registered creator, its containerEl is put in the workspace DOM, and
 *   onOpen() is awaited; detach() runs onClose() and removes the DOM.
 * Fake-only test helpers: setActiveFile, setLeafVisible, deferMode, rightLeafAvailable, openedLinks.
 */
import type { App } from "./app";
import { bindRuntime, Events, type EventRef } from "./events";
import type { TFile } from "./files";
import { setIcon } from "./icons";
import type { Runtime } from "./runtime";
import { debounce, getLinkpath, type Debouncer } from "./utils";
import { closeView, DeferredView, EmptyView, FileView, MarkdownView, openView, type View } from "./view";

export type PaneType = "tab" | "split" | "window";
export type SplitDirection = "vertical" | "horizontal";
export type Side = "left" | "right";
export type LeafSide = "root" | Side;
export type ViewCreator = (leaf: WorkspaceLeaf) => View;

export interface ViewState {
	type: string;
	state?: Record<string, unknown>;
	active?: boolean;
	pinned?: boolean;
	group?: WorkspaceLeaf;
}

export interface OpenViewState {
	state?: Record<string, unknown>;
	eState?: Record<string, unknown>;
	active?: boolean;
	group?: WorkspaceLeaf;
}

export interface OpenedLink {
	linktext: string;
	sourcePath: string;
	newLeaf: PaneType | boolean | undefined;
	/** Path of the file that was opened (created first when the link was unresolved, like Obsidian). */
	path: string;
	created: boolean;
}

export interface OpenedFile {
	path: string;
	/** The leaf's id, and whether it was a new leaf (not the one shown before). */
	leaf: string;
	side: LeafSide;
}

/** 'never': views load at once; 'inactive': setViewState without active stays deferred; 'always'. */
export type DeferMode = "never" | "inactive" | "always";

export interface WorkspaceOptions {
	rightLeafAvailable?: boolean;
	leftLeafAvailable?: boolean;
	deferMode?: DeferMode;
}

export class WorkspaceTabs extends Events {
	parent: WorkspaceSplit;
	constructor(parent: WorkspaceSplit) {
		super();
		this.parent = parent;
	}
}

/** Stands for WorkspaceRoot and WorkspaceSidedock (one tab group each). */
export class WorkspaceSplit extends Events {
	readonly side: LeafSide;
	readonly containerEl: HTMLElement;
	readonly tabs: WorkspaceTabs;
	collapsed = false;
	private readonly workspace: Workspace;

	constructor(workspace: Workspace, side: LeafSide, parentEl: HTMLElement) {
		super();
		this.workspace = workspace;
		this.side = side;
		this.containerEl = parentEl.createDiv({ cls: `workspace-split mod-${side === "root" ? "root" : `${side}-split`}` });
		this.tabs = new WorkspaceTabs(this);
	}

	get win(): Window {
		return window;
	}

	get doc(): Document {
		return document;
	}

	collapse(): void {
		if (this.side === "root" || this.collapsed) return;
		this.collapsed = true;
		this.containerEl.hide();
		this.workspace.requestLayoutChange();
	}

	expand(): void {
		if (!this.collapsed) return;
		this.collapsed = false;
		this.containerEl.show();
		this.workspace.requestLayoutChange();
	}

	toggle(): void {
		if (this.collapsed) this.expand();
		else this.collapse();
	}

	getRoot(): WorkspaceSplit {
		return this;
	}

	getContainer(): WorkspaceSplit {
		return this.workspace.rootSplit;
	}
}

export class WorkspaceRibbon {
	readonly containerEl: HTMLElement;
	constructor(parentEl: HTMLElement, side: Side) {
		this.containerEl = parentEl.createDiv({ cls: `workspace-ribbon side-dock-ribbon mod-${side}` });
	}
}

let nextLeafId = 1;

export class WorkspaceLeaf extends Events {
	readonly id = `leaf-${nextLeafId++}`;
	readonly app: App;
	readonly workspace: Workspace;
	readonly side: LeafSide;
	readonly containerEl: HTMLElement;
	parent: WorkspaceTabs;
	view: View;
	hoverPopover: null = null;
	pinned = false;
	/** Fake-only: detach() was called. */
	detached = false;

	constructor(workspace: Workspace, side: LeafSide, split: WorkspaceSplit) {
		super();
		this.workspace = workspace;
		this.app = workspace.app;
		this.side = side;
		this.parent = split.tabs;
		this.containerEl = split.containerEl.createDiv({ cls: "workspace-leaf" });
		this.view = new EmptyView(this);
		this.containerEl.appendChild(this.view.containerEl);
		this.view.load();
	}

	on(name: "pinned-change", callback: (pinned: boolean) => unknown, ctx?: unknown): EventRef;
	on(name: "group-change", callback: (group: string) => unknown, ctx?: unknown): EventRef;
	on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef;
	on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
		return super.on(name, callback, ctx);
	}

	get isDeferred(): boolean {
		return this.view instanceof DeferredView;
	}

	/** Fake-only: false when hidden with workspace.setLeafVisible(leaf, false) or in a collapsed sidebar. */
	get isVisible(): boolean {
		return this.containerEl.isShown();
	}

	getRoot(): WorkspaceSplit {
		return this.parent.parent;
	}

	getContainer(): WorkspaceSplit {
		return this.workspace.rootSplit;
	}

	async open(view: View): Promise<View> {
		await this.replaceView(view);
		return view;
	}

	async setViewState(viewState: ViewState, eState?: unknown): Promise<void> {
		const creator = this.workspace.getViewCreator(viewState.type);
		if (!creator || this.workspace.shouldDefer(viewState)) {
			await this.replaceView(new DeferredView(this, viewState.type, viewState.state ?? {}));
		} else {
			const view = creator(this);
			await this.replaceView(view);
			if (viewState.state) await view.setState(viewState.state, { history: false });
			if (eState !== undefined) view.setEphemeralState(eState);
		}
		if (viewState.pinned !== undefined) this.setPinned(viewState.pinned);
		if (viewState.active) this.workspace.setActiveLeaf(this);
		this.workspace.requestLayoutChange();
	}

	getViewState(): ViewState {
		return {
			type: this.view.getViewType(),
			state: this.view.getState(),
			active: this.workspace.activeLeaf === this,
			pinned: this.pinned,
		};
	}

	async loadIfDeferred(): Promise<void> {
		const view = this.view;
		if (!(view instanceof DeferredView)) return;
		const creator = this.workspace.getViewCreator(view.viewType);
		if (!creator) return;
		const real = creator(this);
		await this.replaceView(real);
		await real.setState(view.state, { history: false });
		this.workspace.requestLayoutChange();
	}

	async openFile(file: TFile, openState?: OpenViewState): Promise<void> {
		let view = this.view;
		if (!(view instanceof FileView) || !view.canAcceptExtension(file.extension)) {
			view = new MarkdownView(this);
			await this.replaceView(view);
		}
		await (view as FileView).loadFile(file);
		if (openState?.eState) view.setEphemeralState(openState.eState);
		this.workspace.recordOpenFile(file);
		this.workspace.openedFiles.push({ path: file.path, leaf: this.id, side: this.side });
		if (openState?.active !== false && this.side === "root") this.workspace.setActiveLeaf(this);
		this.workspace.fileOpenedIn(this, file);
		this.workspace.requestLayoutChange();
	}

	getEphemeralState(): unknown {
		return this.view.getEphemeralState();
	}

	setEphemeralState(state: unknown): void {
		this.view.setEphemeralState(state);
	}

	togglePinned(): void {
		this.setPinned(!this.pinned);
	}

	setPinned(pinned: boolean): void {
		if (this.pinned === pinned) return;
		this.pinned = pinned;
		this.trigger("pinned-change", pinned);
	}

	setGroupMember(other: WorkspaceLeaf): void {
		void other;
	}

	setGroup(group: string): void {
		this.trigger("group-change", group);
	}

	detach(): void {
		if (this.detached) return;
		this.detached = true;
		this.workspace.removeLeaf(this);
		const view = this.view;
		this.app.runtime.track(
			closeView(view).finally(() => this.containerEl.detach()),
			"leaf.detach",
		);
	}

	getIcon(): string {
		return this.view.getIcon();
	}

	getDisplayText(): string {
		return this.view.getDisplayText();
	}

	onResize(): void {
		this.view.onResize();
	}

	/** Fake-only: close the current view and open another one in this leaf. */
	async replaceView(view: View): Promise<void> {
		const old = this.view;
		if (old !== view) await closeView(old);
		this.view = view;
		await openView(view, this.containerEl);
	}
}

export class Workspace extends Events {
	readonly app: App;
	containerEl: HTMLElement;
	leftSplit: WorkspaceSplit;
	rightSplit: WorkspaceSplit;
	rootSplit: WorkspaceSplit;
	leftRibbon: WorkspaceRibbon;
	rightRibbon: WorkspaceRibbon;
	activeLeaf: WorkspaceLeaf | null = null;
	layoutReady = false;
	activeEditor: MarkdownView | null = null;
	requestSaveLayout: Debouncer<[], Promise<void>>;

	/** Fake-only test knobs and records. */
	rightLeafAvailable: boolean;
	leftLeafAvailable: boolean;
	deferMode: DeferMode;
	readonly openedLinks: OpenedLink[] = [];
	readonly openedFiles: OpenedFile[] = [];
	readonly statusBarEl: HTMLElement;

	private readonly runtime: Runtime;
	private readonly leaves: WorkspaceLeaf[] = [];
	private readonly creators = new Map<string, ViewCreator>();
	private readonly layoutReadyCallbacks: Array<() => unknown> = [];
	private readonly lastOpenFiles: string[] = [];
	private lastRootLeaf: WorkspaceLeaf | null = null;
	private activeFile: TFile | null = null;
	private layoutChangeQueued = false;

	constructor(app: App, runtime: Runtime, options: WorkspaceOptions = {}) {
		super();
		bindRuntime(this, runtime);
		this.app = app;
		this.runtime = runtime;
		this.rightLeafAvailable = options.rightLeafAvailable ?? true;
		this.leftLeafAvailable = options.leftLeafAvailable ?? true;
		this.deferMode = options.deferMode ?? "never";
		this.containerEl = document.body.createDiv({ cls: "app-container workspace" });
		this.leftRibbon = new WorkspaceRibbon(this.containerEl, "left");
		this.leftSplit = new WorkspaceSplit(this, "left", this.containerEl);
		this.rootSplit = new WorkspaceSplit(this, "root", this.containerEl);
		this.rightSplit = new WorkspaceSplit(this, "right", this.containerEl);
		this.rightRibbon = new WorkspaceRibbon(this.containerEl, "right");
		this.statusBarEl = this.containerEl.createDiv({ cls: "status-bar" });
		this.requestSaveLayout = debounce(async () => undefined, 0);
		this.creators.set("empty", (leaf) => new EmptyView(leaf));
		this.creators.set("markdown", (leaf) => new MarkdownView(leaf));
	}

	on(name: "resize", callback: () => unknown, ctx?: unknown): EventRef;
	on(name: "active-leaf-change", callback: (leaf: WorkspaceLeaf | null) => unknown, ctx?: unknown): EventRef;
	on(name: "file-open", callback: (file: TFile | null) => unknown, ctx?: unknown): EventRef;
	on(name: "layout-change", callback: () => unknown, ctx?: unknown): EventRef;
	on(name: "quit", callback: (tasks: unknown) => unknown, ctx?: unknown): EventRef;
	on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef;
	on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
		return super.on(name, callback, ctx);
	}

	// ---- layout ready ----------------------------------------------------------------------

	onLayoutReady(callback: () => unknown): void {
		if (this.layoutReady) this.runtime.schedule(0, callback, "onLayoutReady callback");
		else this.layoutReadyCallbacks.push(callback);
	}

	/** Fake-only (the host calls it): runs queued onLayoutReady callbacks, in order. */
	setLayoutReady(): void {
		if (this.layoutReady) return;
		this.layoutReady = true;
		for (const cb of this.layoutReadyCallbacks.splice(0)) {
			try {
				this.runtime.track(cb(), "onLayoutReady callback");
			} catch (error) {
				this.runtime.recordError("onLayoutReady callback", error);
			}
		}
	}

	async changeLayout(workspace: unknown): Promise<void> {
		void workspace;
	}

	getLayout(): Record<string, unknown> {
		return { leaves: this.leaves.map((l) => ({ id: l.id, side: l.side, ...l.getViewState() })) };
	}

	// ---- views ------------------------------------------------------------------------------

	/** Fake-only (Plugin.registerView uses it). */
	registerView(type: string, creator: ViewCreator): void {
		if (this.creators.has(type)) throw new Error(`Attempting to register an existing view type "${type}"`);
		this.creators.set(type, creator);
	}

	/** Fake-only: forget a view type; its open views close and become placeholders (as on plugin unload). */
	unregisterView(type: string): void {
		this.creators.delete(type);
		for (const leaf of this.leaves.slice()) {
			const view = leaf.view;
			if (view.getViewType() !== type || view instanceof DeferredView) continue;
			this.runtime.track(leaf.replaceView(new DeferredView(leaf, type, view.getState())), "unregisterView");
		}
	}

	getViewCreator(type: string): ViewCreator | undefined {
		return this.creators.get(type);
	}

	/** Fake-only: the registered view types (built-ins excluded). */
	registeredViewTypes(): string[] {
		return [...this.creators.keys()].filter((t) => t !== "empty" && t !== "markdown");
	}

	shouldDefer(viewState: ViewState): boolean {
		if (this.deferMode === "always") return true;
		if (this.deferMode === "inactive") return !viewState.active;
		return false;
	}

	// ---- leaves -----------------------------------------------------------------------------

	/** Fake-only: a new empty leaf in a split. */
	createLeaf(side: LeafSide = "root"): WorkspaceLeaf {
		const split = side === "left" ? this.leftSplit : side === "right" ? this.rightSplit : this.rootSplit;
		const leaf = new WorkspaceLeaf(this, side, split);
		this.leaves.push(leaf);
		this.requestLayoutChange();
		return leaf;
	}

	/** Fake-only (leaf.detach uses it). */
	removeLeaf(leaf: WorkspaceLeaf): void {
		const i = this.leaves.indexOf(leaf);
		if (i >= 0) this.leaves.splice(i, 1);
		if (this.lastRootLeaf === leaf) this.lastRootLeaf = null;
		if (this.activeLeaf === leaf) {
			this.activeLeaf = null;
			this.activeEditor = null;
			this.trigger("active-leaf-change", null);
		}
		this.requestLayoutChange();
	}

	getLeaf(newLeaf?: PaneType | boolean, direction?: SplitDirection): WorkspaceLeaf {
		void direction;
		if (!newLeaf) {
			const candidates = [this.activeLeaf, this.lastRootLeaf, ...this.leaves.filter((l) => l.side === "root")];
			const reusable = candidates.find((l): l is WorkspaceLeaf => !!l && l.side === "root" && !l.pinned && !l.detached);
			if (reusable) return reusable;
		}
		return this.createLeaf("root");
	}

	getUnpinnedLeaf(): WorkspaceLeaf {
		return this.getLeaf(false);
	}

	createLeafInParent(parent: unknown, index: number): WorkspaceLeaf {
		void parent;
		void index;
		return this.createLeaf("root");
	}

	createLeafBySplit(leaf: WorkspaceLeaf, direction?: SplitDirection, before?: boolean): WorkspaceLeaf {
		void direction;
		void before;
		return this.createLeaf(leaf.side);
	}

	splitActiveLeaf(direction?: SplitDirection): WorkspaceLeaf {
		void direction;
		return this.createLeaf("root");
	}

	openPopoutLeaf(data?: unknown): WorkspaceLeaf {
		void data;
		return this.createLeaf("root");
	}

	async duplicateLeaf(leaf: WorkspaceLeaf): Promise<WorkspaceLeaf> {
		const copy = this.createLeaf(leaf.side);
		await copy.setViewState(leaf.getViewState());
		return copy;
	}

	getRightLeaf(split: boolean): WorkspaceLeaf | null {
		void split;
		return this.rightLeafAvailable ? this.createLeaf("right") : null;
	}

	getLeftLeaf(split: boolean): WorkspaceLeaf | null {
		void split;
		return this.leftLeafAvailable ? this.createLeaf("left") : null;
	}

	async ensureSideLeaf(
		type: string,
		side: Side,
		options: { active?: boolean; split?: boolean; reveal?: boolean; state?: Record<string, unknown> } = {},
	): Promise<WorkspaceLeaf> {
		let leaf = this.leaves.find((l) => l.side === side && l.view.getViewType() === type);
		if (!leaf) {
			leaf = this.createLeaf(side);
			await leaf.setViewState({ type, active: options.active, state: options.state });
		}
		if (options.reveal !== false) await this.revealLeaf(leaf);
		return leaf;
	}

	getLeafById(id: string): WorkspaceLeaf | null {
		return this.leaves.find((l) => l.id === id) ?? null;
	}

	getGroupLeaves(group: string): WorkspaceLeaf[] {
		void group;
		return [];
	}

	getMostRecentLeaf(): WorkspaceLeaf | null {
		return this.lastRootLeaf ?? this.leaves.find((l) => l.side === "root") ?? null;
	}

	iterateRootLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
		for (const leaf of this.leaves.filter((l) => l.side === "root")) callback(leaf);
	}

	iterateAllLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
		for (const leaf of this.leaves.slice()) callback(leaf);
	}

	getLeavesOfType(viewType: string): WorkspaceLeaf[] {
		return this.leaves.filter((l) => l.view.getViewType() === viewType);
	}

	detachLeavesOfType(viewType: string): void {
		for (const leaf of this.getLeavesOfType(viewType)) leaf.detach();
	}

	/** Shows the leaf (expanding its sidebar) and loads it when deferred (Obsidian 1.7.2+). */
	async revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
		await leaf.loadIfDeferred();
		const split = leaf.getRoot();
		if (split.collapsed) split.expand();
		if (leaf.containerEl.style.display === "none") this.setLeafVisible(leaf, true);
	}

	setActiveLeaf(leaf: WorkspaceLeaf, params?: { focus?: boolean } | boolean, focus?: boolean): void {
		void params;
		void focus;
		if (this.activeLeaf === leaf) return;
		this.activeLeaf = leaf;
		if (leaf.side === "root") this.lastRootLeaf = leaf;
		this.activeEditor = leaf.view instanceof MarkdownView ? leaf.view : null;
		this.trigger("active-leaf-change", leaf);
		const file = leaf.view instanceof FileView ? leaf.view.file : null;
		if (leaf.side === "root" && file !== this.activeFile) {
			this.activeFile = file;
			this.trigger("file-open", file);
		}
	}

	getActiveViewOfType<T extends View>(type: abstract new (...args: never[]) => T): T | null {
		const view = this.activeLeaf?.view;
		return view instanceof type ? view : null;
	}

	getActiveFile(): TFile | null {
		return this.activeFile;
	}

	getLastOpenFiles(): string[] {
		return this.lastOpenFiles.slice(0, 10);
	}

	/** Fake-only (leaf.openFile uses these). */
	recordOpenFile(file: TFile): void {
		const i = this.lastOpenFiles.indexOf(file.path);
		if (i >= 0) this.lastOpenFiles.splice(i, 1);
		this.lastOpenFiles.unshift(file.path);
	}

	fileOpenedIn(leaf: WorkspaceLeaf, file: TFile): void {
		if (leaf === this.activeLeaf && this.activeFile !== file) {
			this.activeFile = file;
			this.activeEditor = leaf.view instanceof MarkdownView ? leaf.view : null;
			this.trigger("file-open", file);
		}
	}

	/** Opens the link's file (creating it when unresolved, like Obsidian) and records the opening. */
	async openLinkText(linktext: string, sourcePath: string, newLeaf?: PaneType | boolean, openViewState?: OpenViewState): Promise<void> {
		const linkpath = getLinkpath(linktext);
		let file = this.app.metadataCache.getFirstLinkpathDest(linkpath, sourcePath);
		let created = false;
		if (!file) {
			const path = /\.[^/]+$/.test(linkpath) ? linkpath : `${linkpath}.md`;
			file = await this.app.vault.create(path, "");
			created = true;
		}
		this.openedLinks.push({ linktext, sourcePath, newLeaf, path: file.path, created });
		const leaf = this.getLeaf(newLeaf);
		await leaf.openFile(file, { active: true, ...openViewState });
	}

	/**
	 * Fake-only test helper: make `file` the active file (null: no active leaf), firing
	 * 'active-leaf-change' and then 'file-open', like the user switching to a tab.
	 */
	async setActiveFile(file: TFile | null): Promise<WorkspaceLeaf | null> {
		if (file === null) {
			this.activeLeaf = null;
			this.activeEditor = null;
			this.activeFile = null;
			this.trigger("active-leaf-change", null);
			this.trigger("file-open", null);
			return null;
		}
		let leaf = this.leaves.find((l) => l.side === "root" && l.view instanceof FileView && l.view.file === file);
		if (!leaf) {
			leaf = this.getLeaf(false);
			await leaf.openFile(file, { active: false });
		}
		this.activeLeaf = leaf;
		this.lastRootLeaf = leaf;
		this.activeFile = file;
		this.activeEditor = leaf.view instanceof MarkdownView ? leaf.view : null;
		this.trigger("active-leaf-change", leaf);
		this.trigger("file-open", file);
		return leaf;
	}

	/** Fake-only test helper: show or hide a leaf (its containerEl), then 'layout-change'. */
	setLeafVisible(leaf: WorkspaceLeaf, visible: boolean): void {
		leaf.containerEl.toggle(visible);
		this.requestLayoutChange();
	}

	/** Fake-only: add a ribbon button (Plugin.addRibbonIcon uses it). */
	addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
		const el = this.leftRibbon.containerEl.createDiv({
			cls: "side-dock-ribbon-action clickable-icon",
			attr: { "aria-label": title },
		});
		setIcon(el, icon);
		el.addEventListener("click", (evt) => this.runtime.track(callback(evt), `ribbon '${title}'`));
		return el;
	}

	/** Fake-only: 'layout-change' fires once, asynchronously, after a burst of layout changes. */
	requestLayoutChange(): void {
		if (this.layoutChangeQueued) return;
		this.layoutChangeQueued = true;
		this.runtime.soon(() => {
			this.layoutChangeQueued = false;
			this.trigger("layout-change");
		}, "layout-change");
	}

	updateOptions(): void {}

	handleLinkContextMenu(): boolean {
		return false;
	}

	/** Fake-only: every leaf (for tests). */
	allLeaves(): WorkspaceLeaf[] {
		return this.leaves.slice();
	}
}
