import { DEFAULT_ROOT, FOLDER, LEASE_NOTE, REGISTRY_FILE, REGISTRY_NOTE } from "./protocol";
import { isInside, joinPath, normalizeVaultPath, safeRelativeFolder } from "./paths";
import type { Registry } from "./registry";

// Where everything lives (protocol section 1), computed from the root folder and the registry.
// Every path is normalised and derived from validated ids and folders, so none can point outside
// the A2A root or a registry group folder.

export type Box = "inbox" | "outbox" | "archive";
export const BOXES: readonly Box[] = ["inbox", "outbox", "archive"];

/** A month folder's name below an archive: `YYYY-MM` (contract v3 section 1). */
export const ARCHIVE_MONTH = /^\d{4}-(?:0[1-9]|1[0-2])$/;

/** `YYYY-MM` of the (UTC) month of `time`: the archive folder a note archived then goes to. */
export function archiveMonth(time: Date): string {
	return time.toISOString().slice(0, 7);
}

export type Location =
	| { area: "box"; box: Box; group: string }
	| { area: "dead-letter" }
	| { area: "log" }
	| { area: "agents" }
	| { area: "registry" }
	| { area: "other" };

export class VaultLayout {
	readonly root: string;
	readonly registryPath: string;
	/** The registry as a note (contract v2 section 2). */
	readonly registryNotePath: string;
	/** The router's lease note. */
	readonly leasePath: string;
	readonly deadLetterFolder: string;
	readonly logFolder: string;
	readonly agentsFolder: string;
	readonly groupsFolder: string;
	private readonly groupFolders = new Map<string, string>();
	/** Each group's box folders, by group id (computed once: the router asks for them per note). */
	private readonly boxPaths = new Map<string, Record<Box, string>>();
	private readonly watched: readonly string[];

	constructor(root: string, registry?: Registry) {
		this.root = safeRelativeFolder(root) ?? DEFAULT_ROOT;
		this.registryPath = joinPath(this.root, REGISTRY_FILE);
		this.registryNotePath = joinPath(this.root, REGISTRY_NOTE);
		this.leasePath = joinPath(this.root, LEASE_NOTE);
		this.deadLetterFolder = joinPath(this.root, FOLDER.deadLetter);
		this.logFolder = joinPath(this.root, FOLDER.log);
		this.agentsFolder = joinPath(this.root, FOLDER.agents);
		this.groupsFolder = joinPath(this.root, FOLDER.groups);
		for (const group of registry?.groups.values() ?? []) {
			const folder = group.folder ?? joinPath(this.root, FOLDER.groups, group.id);
			this.groupFolders.set(group.id, folder);
			this.boxPaths.set(group.id, { inbox: joinPath(folder, FOLDER.inbox), outbox: joinPath(folder, FOLDER.outbox), archive: joinPath(folder, FOLDER.archive) });
		}
		const outside = [...this.groupFolders.values()].filter((folder) => !isInside(folder, this.root));
		this.watched = [this.root, ...outside];
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
		return this.boxPaths.get(group)?.[box] ?? null;
	}

	/**
	 * The folder a note archived at `time` goes to: `archive/YYYY-MM/` for the UTC month (contract
	 * v3 section 1), made on demand by the move that puts the note there.
	 */
	archiveFolder(group: string, time: Date): string | null {
		const archive = this.box(group, "archive");
		return archive === null ? null : joinPath(archive, archiveMonth(time));
	}

	/** A group's inbox, outbox and archive folders, in that order (none for a group the layout lacks). */
	boxesOf(group: string): string[] {
		const paths = this.boxPaths.get(group);
		return paths ? BOXES.map((box) => paths[box]) : [];
	}

	/** Every folder the router reads or writes: the root and the registry's group folders. */
	watchedFolders(): string[] {
		return [...this.watched];
	}

	/** Cheap first filter for vault events: is this path anywhere the router cares about? */
	isRelevant(path: string): boolean {
		return this.watched.some((folder) => isInside(path, folder));
	}

	/**
	 * Which folder of the layout a path is in (direct children of a box, and of an archive's month
	 * folders `archive/YYYY-MM/`, which count as the archive; agents at any depth).
	 * Only `/` separates: a path listed from a disk is taken as it is, whatever its name holds.
	 */
	locate(path: string): Location {
		if (path === this.registryPath || path === this.registryNotePath) return { area: "registry" };
		const slash = path.lastIndexOf("/");
		const box = slash > 0 ? (this.boxFolders().get(path.slice(0, slash)) ?? this.monthFolder(path.slice(0, slash))) : undefined;
		if (box) return { area: "box", box: box.box, group: box.group };
		if (isInside(path, this.deadLetterFolder) && path !== this.deadLetterFolder) return { area: "dead-letter" };
		if (isInside(path, this.logFolder) && path !== this.logFolder) return { area: "log" };
		if (isInside(path, this.agentsFolder) && path !== this.agentsFolder) return { area: "agents" };
		return { area: "other" };
	}

	private boxes: Map<string, { group: string; box: Box }> | null = null;

	/** The archive a month folder (`archive/YYYY-MM`) is in, as a box; undefined for any other folder. */
	private monthFolder(folder: string): { group: string; box: Box } | undefined {
		const slash = folder.lastIndexOf("/");
		if (slash <= 0 || !ARCHIVE_MONTH.test(folder.slice(slash + 1))) return undefined;
		const box = this.boxFolders().get(folder.slice(0, slash));
		return box?.box === "archive" ? box : undefined;
	}

	/** True for a month folder below a group's archive. */
	isArchiveMonth(folder: string): boolean {
		return this.monthFolder(folder) !== undefined;
	}

	/** Every box folder of every group, by path. */
	private boxFolders(): Map<string, { group: string; box: Box }> {
		if (this.boxes) return this.boxes;
		this.boxes = new Map();
		for (const [group, paths] of this.boxPaths) {
			for (const box of BOXES) this.boxes.set(paths[box], { group, box });
		}
		return this.boxes;
	}

	/** The folders whose notes are messages: every group's boxes and the dead-letter folder. */
	messageFolders(): string[] {
		return [...this.boxFolders().keys(), this.deadLetterFolder];
	}

	/** True for any path the router may write: inside the root or a registry group folder. */
	mayWrite(path: string): boolean {
		const normal = normalizeVaultPath(path);
		if (/(?:^|\/)\.\.(?:\/|$)/.test(normal)) return false;
		return this.watched.some((folder) => isInside(normal, folder));
	}
}
