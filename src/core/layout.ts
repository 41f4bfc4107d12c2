import { DEFAULT_ROOT, FOLDER, REGISTRY_FILE } from "./protocol";
import { isInside, joinPath, normalizeVaultPath, safeRelativeFolder } from "./paths";
import type { Registry } from "./registry";

// Where everything lives (protocol section 1), computed from the root folder and the registry.
// Every path is normalised and derived from validated ids and folders, so none can point outside
// the A2A root or a registry group folder.

export type Box = "inbox" | "outbox" | "archive";

export type Location =
	| { area: "box"; box: Box; group: string }
	| { area: "dead-letter" }
	| { area: "log" }
	| { area: "agents" }
	| { area: "registry" }
	| { area: "other" };

export class VaultLayout {
	readonly root: string;
	private readonly groupFolders = new Map<string, string>();

	constructor(root: string, registry?: Registry) {
		this.root = safeRelativeFolder(root) ?? DEFAULT_ROOT;
		for (const group of registry?.groups.values() ?? []) {
			this.groupFolders.set(group.id, group.folder ?? joinPath(this.root, FOLDER.groups, group.id));
		}
	}

	get registryPath(): string {
		return joinPath(this.root, REGISTRY_FILE);
	}
	get deadLetterFolder(): string {
		return joinPath(this.root, FOLDER.deadLetter);
	}
	get logFolder(): string {
		return joinPath(this.root, FOLDER.log);
	}
	get agentsFolder(): string {
		return joinPath(this.root, FOLDER.agents);
	}
	get groupsFolder(): string {
		return joinPath(this.root, FOLDER.groups);
	}

	/** `log/YYYY-MM-DD.md` for the (UTC) day of `time`. */
	logPath(time: Date): string {
		return joinPath(this.logFolder, `${time.toISOString().slice(0, 10)}.md`);
	}

	groupIds(): string[] {
		return [...this.groupFolders.keys()];
	}

	hasGroup(id: string): boolean {
		return this.groupFolders.has(id);
	}

	groupFolder(id: string): string | null {
		return this.groupFolders.get(id) ?? null;
	}

	box(group: string, box: Box): string | null {
		const folder = this.groupFolders.get(group);
		return folder === undefined ? null : joinPath(folder, FOLDER[box]);
	}

	/** Every folder the router reads or writes: the root and the registry's group folders. */
	watchedFolders(): string[] {
		const outside = [...this.groupFolders.values()].filter((folder) => !isInside(folder, this.root));
		return [this.root, ...outside];
	}

	/** Cheap first filter for vault events: is this path anywhere the router cares about? */
	isRelevant(path: string): boolean {
		return this.watchedFolders().some((folder) => isInside(path, folder));
	}

	/** Which folder of the layout a path is in (direct children of a box only; agents at any depth). */
	locate(rawPath: string): Location {
		const path = normalizeVaultPath(rawPath);
		if (path === this.registryPath) return { area: "registry" };
		for (const [group, folder] of this.groupFolders) {
			for (const box of ["inbox", "outbox", "archive"] as const) {
				const boxFolder = joinPath(folder, FOLDER[box]);
				if (path.startsWith(`${boxFolder}/`) && !path.slice(boxFolder.length + 1).includes("/")) {
					return { area: "box", box, group };
				}
			}
		}
		if (isInside(path, this.deadLetterFolder) && path !== this.deadLetterFolder) return { area: "dead-letter" };
		if (isInside(path, this.logFolder) && path !== this.logFolder) return { area: "log" };
		if (isInside(path, this.agentsFolder) && path !== this.agentsFolder) return { area: "agents" };
		return { area: "other" };
	}

	/** True for any path the router may write: inside the root or a registry group folder. */
	mayWrite(path: string): boolean {
		const normal = normalizeVaultPath(path);
		if (normal.split("/").includes("..")) return false;
		return this.watchedFolders().some((folder) => isInside(normal, folder));
	}
}
