/** App: wires the vault, metadata cache, file manager, workspace, keymap, commands and settings. */
import { CommandRegistry } from "./commands";
import type { Disk } from "./disk";
import { FileManager } from "./file-manager";
import { Keymap, Scope, type UserEvent } from "./keymap";
import { MetadataCache } from "./metadata-cache";
import type { MarkdownPostProcessor } from "./markdown-preview";
import type { HoverLinkSource, Plugin, PluginManifest } from "./plugin";
import type { Runtime } from "./runtime";
import { SecretStorage } from "./secret-storage";
import { SettingRegistry } from "./setting-tab";
import { Vault } from "./vault";
import { Workspace, type WorkspaceOptions } from "./workspace";

export interface AppOptions extends WorkspaceOptions {
	/** Delay before the watcher notices outside changes (ms, default 5). */
	watcherDelayMs?: number;
	/** Delay between a vault event and the metadata cache update (ms, default 2). */
	metadataDelayMs?: number;
}

/** Fake of Obsidian's internal `app.plugins`. */
export class PluginRegistry {
	readonly plugins: Record<string, Plugin> = {};
	readonly manifests: Record<string, PluginManifest> = {};
	readonly enabledPlugins = new Set<string>();

	getPlugin(id: string): Plugin | null {
		return this.plugins[id] ?? null;
	}
}

export class App {
	keymap: Keymap;
	scope: Scope;
	workspace: Workspace;
	vault: Vault;
	metadataCache: MetadataCache;
	fileManager: FileManager;
	/** Secrets kept on this device, never in the vault (since 1.11.4). */
	secretStorage = new SecretStorage();
	lastEvent: UserEvent | null = null;

	/** Obsidian-internal registries, faked. */
	commands: CommandRegistry;
	setting: SettingRegistry;
	plugins = new PluginRegistry();
	/** Fake-only. */
	readonly runtime: Runtime;
	readonly protocolHandlers = new Map<string, (params: Record<string, string>) => unknown>();
	/** Fake-only: what plugins registered with registerHoverLinkSource. */
	readonly hoverLinkSources = new Map<string, HoverLinkSource>();
	/** Fake-only: what plugins registered with registerMarkdownPostProcessor, in order. */
	readonly markdownPostProcessors: MarkdownPostProcessor[] = [];
	private readonly localStorage = new Map<string, unknown>();
	private loadingVault = false;
	private readonly onKeydown: (evt: KeyboardEvent) => void;

	constructor(disk: Disk, runtime: Runtime, options: AppOptions = {}) {
		this.runtime = runtime;
		this.scope = new Scope();
		this.keymap = new Keymap(this.scope);
		this.vault = new Vault(disk, runtime, { watcherDelayMs: options.watcherDelayMs });
		this.metadataCache = new MetadataCache(this.vault, runtime, { delayMs: options.metadataDelayMs });
		this.fileManager = new FileManager(this.vault, this.metadataCache);
		this.workspace = new Workspace(this, runtime, options);
		this.commands = new CommandRegistry(this.workspace, runtime);
		this.setting = new SettingRegistry(this);
		this.vault.hooks = {
			moved: (file, oldPath) => this.metadataCache.onMoved(file, oldPath),
			beforeEvent: (name, file) => {
				if (!this.loadingVault) this.metadataCache.onVaultEvent(name, file);
			},
			hiddenChanged: (path) => this.onHiddenChange(path),
		};
		this.onKeydown = (evt) => {
			this.lastEvent = evt;
			this.keymap.handleKeydown(evt);
		};
		document.addEventListener("keydown", this.onKeydown);
	}

	isDarkMode(): boolean {
		return false;
	}

	loadLocalStorage(key: string): unknown {
		return this.localStorage.get(key) ?? null;
	}

	saveLocalStorage(key: string, data: unknown): void {
		if (data === null || data === undefined) this.localStorage.delete(key);
		else this.localStorage.set(key, data);
	}

	/**
	 * Fake-only: the vault's startup scan. Fills the metadata cache (a warm cache: no 'changed'),
	 * fires 'create' for every existing file and folder, then the cache's 'resolved'.
	 */
	async loadVault(): Promise<void> {
		this.loadingVault = true;
		try {
			await this.vault.loadFromDisk(() => this.metadataCache.fillAll());
		} finally {
			this.loadingVault = false;
		}
		this.metadataCache.trigger("resolved");
	}

	/** Fake-only: remove the App's DOM and listeners. */
	dispose(): void {
		document.removeEventListener("keydown", this.onKeydown);
		this.setting.close();
		this.workspace.containerEl.detach();
	}

	private onHiddenChange(path: string): void {
		for (const plugin of Object.values(this.plugins.plugins)) {
			if (plugin.dataPath !== path || !plugin.onExternalSettingsChange) continue;
			try {
				this.runtime.track(plugin.onExternalSettingsChange(), "onExternalSettingsChange");
			} catch (error) {
				this.runtime.recordError("onExternalSettingsChange", error);
			}
		}
	}
}
