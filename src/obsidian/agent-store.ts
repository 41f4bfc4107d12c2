import { Component, Events, TFile, TFolder } from "obsidian";
import type { App, CachedMetadata, EventRef } from "obsidian";
import { readAgent } from "../core/agent";
import { agentFolders, isAgentNotePath } from "../core/agent-folders";
import type { AgentRecord } from "../core/agent";
import { transitionWarning } from "../core/lifecycle";
import { VaultLayout } from "../core/layout";
import type { RelaySettings } from "../settings";

// Every agent status note in the agents folder and the extra agent folders, read from Obsidian's
// metadata cache (never by reading files), kept current from cache and vault events. Listeners get
// the paths that changed, so the view can update those rows alone.

export const AGENTS_CHANGED = "a2a-relay:agents-changed";

/** An agent record as the store holds it. */
export interface AgentEntry extends AgentRecord {
	/** A move outside the lifecycle graph seen since the plugin started watching this agent. */
	transitionWarning?: string;
}

export class AgentStore extends Component {
	readonly events = new Events();
	private readonly agents = new Map<string, AgentEntry>();
	private readonly warnings = new Map<string, string>();

	constructor(
		private readonly app: App,
		private readonly settings: () => Pick<RelaySettings, "rootFolder" | "extraAgentFolders">,
	) {
		super();
	}

	/** Calls `listener` with the paths of the agents that changed. */
	onChanged(listener: (paths: string[]) => void): EventRef {
		return this.events.on(AGENTS_CHANGED, (...data: unknown[]) => listener(data[0] as string[]));
	}

	onload(): void {
		this.app.workspace.onLayoutReady(() => {
			this.registerEvent(this.app.metadataCache.on("changed", (file, _data, cache) => this.update(file, cache)));
			this.registerEvent(this.app.vault.on("delete", (file) => this.forget(file.path)));
			// The metadata cache does not fire `changed` on a rename: follow the file ourselves.
			this.registerEvent(
				this.app.vault.on("rename", (file, oldPath) => {
					this.forget(oldPath);
					if (file instanceof TFile) this.update(file);
				}),
			);
			this.rescan();
		});
	}

	folders(): string[] {
		const s = this.settings();
		return agentFolders(new VaultLayout(s.rootFolder), s.extraAgentFolders);
	}

	isAgentPath(path: string): boolean {
		return isAgentNotePath(path, this.folders());
	}

	all(): AgentEntry[] {
		return [...this.agents.values()];
	}

	get(path: string): AgentEntry | undefined {
		return this.agents.get(path);
	}

	/** Reads every agent folder again (at start and when the settings change). */
	rescan(): void {
		const before = new Set(this.agents.keys());
		this.agents.clear();
		for (const folder of this.folders()) {
			const dir = this.app.vault.getFolderByPath(folder);
			if (dir) this.walk(dir);
		}
		this.emit([...new Set([...before, ...this.agents.keys()])]);
	}

	private walk(dir: TFolder): void {
		for (const child of dir.children) {
			if (child instanceof TFolder) this.walk(child);
			else if (child instanceof TFile) this.read(child);
		}
	}

	private read(file: TFile, cache?: CachedMetadata | null): boolean {
		if (!this.isAgentPath(file.path)) return false;
		const meta = cache ?? this.app.metadataCache.getFileCache(file);
		const headings = (meta?.headings ?? []).filter((h) => h.level === 2).map((h) => `## ${h.heading}`).join("\n");
		const record = readAgent(file.path, meta?.frontmatter, headings, file.stat.mtime);
		const previous = this.agents.get(file.path);
		if (!record) {
			this.agents.delete(file.path);
			return previous !== undefined;
		}
		const entry: AgentEntry = record;
		if (previous && previous.status !== record.status) {
			const warning = transitionWarning(previous.status, record.status);
			if (warning) this.warnings.set(file.path, warning);
			else this.warnings.delete(file.path);
		}
		const warning = this.warnings.get(file.path);
		if (warning) entry.transitionWarning = warning;
		this.agents.set(file.path, entry);
		return true;
	}

	private update(file: TFile, cache?: CachedMetadata): void {
		const known = this.agents.has(file.path);
		if (this.read(file, cache) || known) this.emit([file.path]);
	}

	private forget(path: string): void {
		this.warnings.delete(path);
		if (this.agents.delete(path)) this.emit([path]);
	}

	private emit(paths: string[]): void {
		if (paths.length > 0) this.events.trigger(AGENTS_CHANGED, paths);
	}
}
