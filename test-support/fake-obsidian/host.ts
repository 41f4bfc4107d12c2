/**
 * FakeHost: runs plugins against the fake Obsidian and simulates the world around them
 * (startup order, outside writers, layout, faults), and lets tests wait until everything settled.
 * Browser-safe (no Node imports); node-host.ts adds a temp-folder host.
 *
 * Realistic startup: `loadPlugin` → `loadVault` (a 'create' per existing file) → `setLayoutReady`.
 */
import type {
	App as ObsidianApp,
	PluginManifest as ObsidianPluginManifest,
	TAbstractFile as ObsidianTAbstractFile,
	TFile as ObsidianTFile,
	WorkspaceLeaf as ObsidianWorkspaceLeaf,
} from "obsidian";
import { App, type AppOptions } from "./app";
import { loadPromiseOf } from "./component";
import { installDomHelpers } from "./dom-helpers";
import type { Disk } from "./disk";
import { listenerCount } from "./events";
import type { FaultOperation, FaultPhase } from "./faults";
import { TFile } from "./files";
import { renderReadingView } from "./markdown-preview";
import { Menu } from "./menu";
import { currentModals, type Modal } from "./modal";
import { normalizePath, parentPath } from "./paths";
import type { Plugin, PluginManifest } from "./plugin";
import { Runtime, setCurrentRuntime, type RecordedError } from "./runtime";
import type { SettingTab } from "./setting-tab";
import { DeferredView, MarkdownView } from "./view";
import type { DeferMode, LeafSide, OpenedFile, OpenedLink, WorkspaceLeaf } from "./workspace";

export interface FakeHostOptions extends AppOptions {
	disk: Disk;
	/** console.error recorded handler errors (default true). They are always in `host.errors`. */
	logErrors?: boolean;
}

/** A plugin class written against the real typings or against the fake (either is accepted). */
export type PluginConstructor<P> = new (app: never, manifest: never) => P;

export interface LoadablePlugin {
	load(): void;
	unload(): void;
}

export type ManifestInput = Partial<PluginManifest> & { id: string };

export interface RestoreLeafOptions {
	type: string;
	side?: LeafSide;
	state?: Record<string, unknown>;
}

function fullManifest(input: ManifestInput): PluginManifest {
	return {
		name: input.id,
		author: "test",
		version: "0.0.0",
		minAppVersion: "0.0.0",
		description: "Test plugin.",
		...input,
	};
}

export class FakeHost {
	readonly disk: Disk;
	readonly runtime: Runtime;
	/** The App with the fake's own types (test helpers included). */
	readonly fakeApp: App;
	private readonly loaded: LoadablePlugin[] = [];
	private disposed = false;
	private readonly readingViews: { unload(): void }[] = [];

	constructor(options: FakeHostOptions) {
		if (!("createDiv" in HTMLElement.prototype)) installDomHelpers(window);
		this.disk = options.disk;
		this.runtime = new Runtime();
		this.runtime.logErrors = options.logErrors ?? true;
		setCurrentRuntime(this.runtime);
		this.fakeApp = new App(options.disk, this.runtime, options);
	}

	static async create(options: FakeHostOptions): Promise<FakeHost> {
		return new FakeHost(options);
	}

	/** The App typed as the real `obsidian` App, to hand to plugin code. */
	get app(): ObsidianApp {
		return this.fakeApp as unknown as ObsidianApp;
	}

	// ---- startup ----------------------------------------------------------------------------

	/** Writes files straight to the disk (no events): the vault as it was before Obsidian started. */
	async seed(files: Record<string, string>): Promise<void> {
		for (const [path, content] of Object.entries(files)) await this.disk.write(path, content);
	}

	/** Scans the disk, fills the metadata cache, fires 'create' for every existing item (awaited). */
	async loadVault(): Promise<void> {
		await this.fakeApp.loadVault();
	}

	/** Runs the onLayoutReady callbacks, then waits until everything settled. */
	async setLayoutReady(): Promise<void> {
		this.fakeApp.workspace.setLayoutReady();
		await this.settled();
	}

	/** Constructs the plugin with (app, manifest), calls load() and awaits an async onload (its rejection too). */
	async loadPlugin<P extends LoadablePlugin>(PluginClass: PluginConstructor<P>, manifest: ManifestInput | ObsidianPluginManifest): Promise<P> {
		const full = fullManifest(manifest);
		const Ctor = PluginClass as unknown as new (app: App, manifest: PluginManifest) => P;
		setCurrentRuntime(this.runtime);
		const plugin = new Ctor(this.fakeApp, full);
		const registry = this.fakeApp.plugins;
		registry.plugins[full.id] = plugin as unknown as Plugin;
		registry.manifests[full.id] = full;
		registry.enabledPlugins.add(full.id);
		this.loaded.push(plugin);
		plugin.load();
		const pending = loadPromiseOf(plugin as unknown as Plugin);
		if (pending) await pending;
		return plugin;
	}

	/** loadPlugin, loadVault and setLayoutReady in Obsidian's order. */
	async boot<P extends LoadablePlugin>(PluginClass: PluginConstructor<P>, manifest: ManifestInput | ObsidianPluginManifest): Promise<P> {
		const plugin = await this.loadPlugin(PluginClass, manifest);
		await this.loadVault();
		await this.setLayoutReady();
		return plugin;
	}

	async unloadPlugin(plugin: LoadablePlugin): Promise<void> {
		plugin.unload();
		const i = this.loaded.indexOf(plugin);
		if (i >= 0) this.loaded.splice(i, 1);
		const registry = this.fakeApp.plugins;
		for (const [id, p] of Object.entries(registry.plugins)) {
			if (p !== (plugin as unknown)) continue;
			delete registry.plugins[id];
			registry.enabledPlugins.delete(id);
		}
	}

	// ---- the world outside the vault API ---------------------------------------------------

	/** Writes on the disk now; the watcher notices after `watcherDelayMs` (create or modify). */
	async externalWrite(path: string, content: string): Promise<void> {
		await this.disk.write(path, content);
		this.fakeApp.vault.notifyWatcher([path]);
	}

	async externalAppend(path: string, content: string): Promise<void> {
		await this.disk.append(path, content);
		this.fakeApp.vault.notifyWatcher([path]);
	}

	/** Deletes a file or a whole folder on the disk; the watcher fires 'delete' later. */
	async externalDelete(path: string): Promise<void> {
		const st = await this.disk.stat(path);
		if (st?.type === "folder") await this.disk.rmdir(path, true);
		else await this.disk.remove(path);
		this.fakeApp.vault.notifyWatcher([path]);
	}

	/** Renames on the disk; like Obsidian's watcher it arrives as 'delete' + 'create', not 'rename'. */
	async externalRename(from: string, to: string): Promise<void> {
		const parent = parentPath(to);
		if (parent !== "") await this.disk.mkdir(parent);
		await this.disk.rename(from, to);
		this.fakeApp.vault.notifyWatcher([from, to]);
	}

	async externalMkdir(path: string): Promise<void> {
		await this.disk.mkdir(path);
		this.fakeApp.vault.notifyWatcher([path]);
	}

	/** Diffs the whole disk against the tree now and fires the events (delivered when this resolves). */
	async rescan(): Promise<void> {
		await this.fakeApp.vault.reconcile(["/"]);
	}

	get watcherDelayMs(): number {
		return this.fakeApp.vault.watcherDelayMs;
	}

	set watcherDelayMs(ms: number) {
		this.fakeApp.vault.watcherDelayMs = ms;
	}

	/** Resolves once watcher notifications, vault events, cache updates and tracked handler promises are done. */
	async settled(): Promise<void> {
		await this.runtime.settled();
	}

	// ---- fault injection -------------------------------------------------------------------

	/** The next such operation throws (`before`: nothing written; `after`: written, event queued, then throws). */
	failNext(operation: FaultOperation, error?: Error, phase: FaultPhase = "before"): void {
		this.fakeApp.vault.faults.failNext(operation, error, phase);
	}

	// ---- workspace helpers -----------------------------------------------------------------

	async setActiveFile(file: ObsidianTFile | TFile | null): Promise<void> {
		await this.fakeApp.workspace.setActiveFile(file as TFile | null);
	}

	setLeafVisible(leaf: ObsidianWorkspaceLeaf | WorkspaceLeaf, visible: boolean): void {
		this.fakeApp.workspace.setLeafVisible(leaf as WorkspaceLeaf, visible);
	}

	/** When false, workspace.getRightLeaf() returns null. */
	setRightLeafAvailable(available: boolean): void {
		this.fakeApp.workspace.rightLeafAvailable = available;
	}

	setLeftLeafAvailable(available: boolean): void {
		this.fakeApp.workspace.leftLeafAvailable = available;
	}

	/** Which setViewState calls leave a deferred placeholder ('never' by default). */
	setDeferMode(mode: DeferMode): void {
		this.fakeApp.workspace.deferMode = mode;
	}

	/** A leaf restored from the saved layout at startup: it holds a deferred placeholder view. */
	async restoreLeaf(options: RestoreLeafOptions): Promise<ObsidianWorkspaceLeaf> {
		const leaf = this.fakeApp.workspace.createLeaf(options.side ?? "right");
		await leaf.replaceView(new DeferredView(leaf, options.type, options.state ?? {}));
		return leaf as unknown as ObsidianWorkspaceLeaf;
	}

	resize(): void {
		this.fakeApp.workspace.trigger("resize");
		this.fakeApp.workspace.iterateAllLeaves((leaf) => leaf.onResize());
	}

	/** Opens the settings window on a plugin's tab; returns the tab's containerEl. */
	openSettings(pluginId?: string): HTMLElement {
		return this.fakeApp.setting.openTabById(pluginId).containerEl;
	}

	closeSettings(): void {
		this.fakeApp.setting.close();
	}

	executeCommand(id: string): boolean {
		return this.fakeApp.commands.executeCommandById(id);
	}

	/**
	 * The menu a right-click on a file shows (the file explorer's, by default): a new Menu, handed
	 * with the file to every 'file-menu' handler, as Obsidian does before showing it. Not shown.
	 */
	fileMenu(file: ObsidianTAbstractFile, source = "file-explorer"): Menu {
		const menu = new Menu();
		this.fakeApp.workspace.trigger("file-menu", menu, file, source, undefined);
		return menu;
	}

	/** The editor's context menu for the note at `path` (opened in the active leaf first). */
	async editorMenu(path: string): Promise<Menu> {
		const leaf = await this.fakeApp.workspace.setActiveFile(this.file(path) as unknown as TFile);
		const view = leaf?.view;
		if (!(view instanceof MarkdownView)) throw new Error(`fake-obsidian: ${path} is not open in a markdown view`);
		const menu = new Menu();
		this.fakeApp.workspace.trigger("editor-menu", menu, view.editor, view);
		return menu;
	}

	/** The note at `path` as the reading view renders it, with every markdown post processor run. */
	async renderReadingView(path: string): Promise<HTMLElement> {
		const el = this.fakeApp.workspace.rootSplit.containerEl.createDiv({ cls: "fake-reading-view" });
		const owner = await renderReadingView(this.fakeApp, await this.disk.read(path), normalizePath(path), el);
		this.readingViews.push(owner);
		return el;
	}

	// ---- lookups and introspection ------------------------------------------------------------

	/** The TFile at a path (throws when absent). */
	file(path: string): ObsidianTFile {
		const f = this.fakeApp.vault.getAbstractFileByPath(normalizePath(path));
		if (!(f instanceof TFile)) throw new Error(`fake-obsidian: no file '${path}' in the vault tree`);
		return f as unknown as ObsidianTFile;
	}

	abstractFile(path: string): ObsidianTAbstractFile | null {
		return this.fakeApp.vault.getAbstractFileByPath(normalizePath(path)) as unknown as ObsidianTAbstractFile | null;
	}

	/** Reads the disk directly. */
	async read(path: string): Promise<string> {
		return this.disk.read(path);
	}

	async exists(path: string): Promise<boolean> {
		return this.disk.exists(path);
	}

	/** Live handlers on vault + workspace + metadataCache. */
	listenerCount(): number {
		const app = this.fakeApp;
		return listenerCount(app.vault) + listenerCount(app.workspace) + listenerCount(app.metadataCache);
	}

	/** Intervals registered through Component.registerInterval and not cleared by an unload. */
	activeIntervals(): number {
		return this.runtime.intervals.size;
	}

	/** Listeners registered through Component.registerDomEvent and still attached. */
	domListenerCount(): number {
		return this.runtime.domListeners;
	}

	registeredViews(): string[] {
		return this.fakeApp.workspace.registeredViewTypes();
	}

	commandIds(): string[] {
		return this.fakeApp.commands.listCommands().map((c) => c.id);
	}

	ribbonIcons(): HTMLElement[] {
		return Array.from(this.fakeApp.workspace.leftRibbon.containerEl.children) as HTMLElement[];
	}

	statusBarItems(): HTMLElement[] {
		return Array.from(this.fakeApp.workspace.statusBarEl.children) as HTMLElement[];
	}

	settingTabs(): SettingTab[] {
		return this.fakeApp.setting.pluginTabs.slice();
	}

	openModals(): Modal[] {
		return currentModals();
	}

	/** Every notice message shown through this host (constructor and setMessage), in order. */
	get notices(): string[] {
		return this.runtime.notices;
	}

	get openedLinks(): OpenedLink[] {
		return this.fakeApp.workspace.openedLinks;
	}

	/** Every file opened in a leaf (leaf.openFile), in order, whichever way it was opened. */
	get openedFiles(): OpenedFile[] {
		return this.fakeApp.workspace.openedFiles;
	}

	/** Errors thrown or rejected by handlers, callbacks and other tracked work. */
	get errors(): RecordedError[] {
		return this.runtime.errors;
	}

	get plugins(): LoadablePlugin[] {
		return this.loaded.slice();
	}

	// ---- teardown ---------------------------------------------------------------------------

	/** Unloads every plugin (newest first), waits until settled, removes the DOM and stops timers. */
	async dispose(): Promise<void> {
		if (this.disposed) return;
		this.disposed = true;
		await this.settled();
		for (const owner of this.readingViews.splice(0)) owner.unload();
		for (const plugin of this.loaded.slice().reverse()) await this.unloadPlugin(plugin);
		await this.settled();
		for (const modal of currentModals()) if (modal.app === this.fakeApp) modal.close();
		this.fakeApp.dispose();
		this.runtime.dispose();
	}
}
