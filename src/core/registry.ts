import { YamlError, parseYamlSafe, splitNote } from "./frontmatter";
import { COMMUNICATION_DEFAULTS, CYCLE_DETECTION_MODES, DEFAULT_GATEWAY_GROUP, DEFAULT_ROOT, FOLDER, MAX_TIMEOUT_SECONDS, ROUTER_SENDER } from "./protocol";
import type { CycleDetection } from "./protocol";
import { safeRelativeFolder } from "./paths";
import { describeValue, isPlainObject } from "./text";

// registry.yaml (protocol section 2): the groups and the communication settings. A bad entry is
// reported and skipped; the rest of the registry keeps working.

const GROUP_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function isGroupId(value: unknown): value is string {
	return typeof value === "string" && GROUP_ID.test(value);
}

/** Why `id` cannot name a group although it is well formed (the router's own name, in any case), or null. */
export function reservedGroupReason(id: string): string | null {
	if (id.toLowerCase() !== ROUTER_SENDER) return null;
	return `group id "${id}" is reserved for the router (its own error and timeout responses come from ${ROUTER_SENDER}): choose another id`;
}

const SECRET_ID = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** The one rule for a secret id, in words. */
export const SECRET_ID_RULE = "1 to 64 lowercase letters, digits or dashes, starting and ending with a letter or digit";
/** Where a secret named by token_secret lives (protocol section 2). */
export const SECRET_PLACES = "in Obsidian's secret storage (Settings → A2A Relay → Groups) for the plugin, and for the a2a command line in the file <id> of ~/.config/a2a-relay/secrets/ (or $XDG_CONFIG_HOME/a2a-relay/secrets/; owner-only) or the environment variable A2A_SECRET_<ID>";

/** A secret's id as a registry names it (token_secret): Obsidian's secret ids and a plain file name, never a path. */
export function isSecretId(value: unknown): value is string {
	return typeof value === "string" && SECRET_ID.test(value);
}

export interface GroupEntry {
	id: string;
	description?: string;
	/** A folder of the group's own (vault-relative), when the registry gives one. */
	folder?: string;
	/** The address of a remote A2A agent: requests to this group are forwarded over HTTP (section 8). */
	url?: string;
	/** The id of the secret holding the bearer token for `url` (never the token, never a path). */
	tokenSecret?: string;
	/** False when `a2a serve` must not serve this group. */
	serve: boolean;
	/** The group `a2a serve` writes inbound requests from (section 8). */
	gateway: boolean;
}

export interface CommunicationSettings {
	max_hops: number;
	timeout_seconds: number;
	retry_attempts: number;
	cycle_detection: CycleDetection;
}

export interface RegistryError {
	/** The entry (its key or list position) or setting the error is about. */
	where: string;
	message: string;
}

export interface Registry {
	communication: CommunicationSettings;
	groups: Map<string, GroupEntry>;
	errors: RegistryError[];
	/** False when the file itself could not be read as a registry (then `groups` is empty). */
	usable: boolean;
	/** Things worth telling the user that are not errors (e.g. both registry files exist). */
	warnings: string[];
}

export function emptyRegistry(errors: RegistryError[] = [], usable = true): Registry {
	return { communication: { ...COMMUNICATION_DEFAULTS }, groups: new Map(), errors, usable, warnings: [] };
}

function readCommunication(raw: unknown, errors: RegistryError[]): CommunicationSettings {
	const settings: CommunicationSettings = { ...COMMUNICATION_DEFAULTS };
	if (raw === undefined || raw === null) return settings;
	if (!isPlainObject(raw)) {
		errors.push({ where: "communication", message: "must be a mapping; the defaults are used" });
		return settings;
	}
	const minimum = { max_hops: 1, timeout_seconds: 1, retry_attempts: 0 };
	for (const key of Object.keys(minimum) as (keyof typeof minimum)[]) {
		const value = raw[key];
		if (value === undefined || value === null) continue;
		const tooLarge = key === "timeout_seconds" && typeof value === "number" && value > MAX_TIMEOUT_SECONDS;
		if (typeof value === "number" && Number.isInteger(value) && value >= minimum[key] && !tooLarge) settings[key] = value;
		else if (tooLarge) errors.push({ where: `communication.${key}`, message: `must be at most ${MAX_TIMEOUT_SECONDS} (30 days), got ${describeValue(value)}; the default ${settings[key]} is used` });
		else errors.push({ where: `communication.${key}`, message: `must be an integer >= ${minimum[key]}, got ${describeValue(value)}; the default ${settings[key]} is used` });
	}
	const mode = raw.cycle_detection;
	if (mode !== undefined && mode !== null) {
		if ((CYCLE_DETECTION_MODES as readonly unknown[]).includes(mode)) settings.cycle_detection = mode as CycleDetection;
		else errors.push({ where: "communication.cycle_detection", message: `must be ${CYCLE_DETECTION_MODES.join(" or ")}, got ${describeValue(mode)}; the default ${settings.cycle_detection} is used` });
	}
	return settings;
}

/** An http(s) URL of a remote agent, or null. */
export function remoteUrl(value: unknown): string | null {
	if (typeof value !== "string") return null;
	try {
		const url = new URL(value.trim());
		return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
	} catch {
		return null;
	}
}

function readEntry(key: string | null, raw: unknown, where: string, errors: RegistryError[]): GroupEntry | null {
	const body = raw === null || raw === undefined ? {} : raw;
	if (!isPlainObject(body)) {
		errors.push({ where, message: `must be a mapping (description, folder, id), got ${describeValue(raw)}` });
		return null;
	}
	const id = body.id !== undefined ? body.id : key;
	if (!isGroupId(id)) {
		errors.push({ where, message: `group id ${describeValue(id)} is not valid: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit` });
		return null;
	}
	const reserved = reservedGroupReason(id);
	if (reserved !== null) {
		errors.push({ where, message: reserved });
		return null;
	}
	const entry: GroupEntry = { id, serve: body.serve !== false, gateway: body.gateway === true };
	const description = body.description;
	if (typeof description === "string" || typeof description === "number" || typeof description === "boolean") entry.description = String(description);
	else if (description !== undefined && description !== null) errors.push({ where, message: `description must be text, got ${describeValue(description)}; it is ignored` });
	if (body.folder !== undefined && body.folder !== null) {
		const folder = typeof body.folder === "string" ? safeRelativeFolder(body.folder) : null;
		if (folder === null) {
			errors.push({ where, message: `folder ${describeValue(body.folder)} must be a relative vault folder without "..", dot-folders or a leading "/"` });
			return null;
		}
		entry.folder = folder;
	}
	if (body.url !== undefined && body.url !== null) {
		const url = remoteUrl(body.url);
		if (url === null) {
			errors.push({ where, message: `url ${describeValue(body.url)} must be an http:// or https:// address of an A2A agent` });
			return null;
		}
		entry.url = url;
	}
	if (body.token_file !== undefined) {
		errors.push({ where, message: `token_file is no longer read (a registry names a secret, never a path): name the token with token_secret: <id> and keep it ${SECRET_PLACES}` });
		return null;
	}
	if (body.token !== undefined) errors.push({ where, message: `a token never goes in the registry: name it with token_secret: <id> and keep it ${SECRET_PLACES}` });
	if (body.token_secret !== undefined && body.token_secret !== null) {
		if (!isSecretId(body.token_secret)) {
			errors.push({ where, message: `token_secret ${describeValue(body.token_secret)} must be a secret id: ${SECRET_ID_RULE}` });
			return null;
		}
		entry.tokenSecret = body.token_secret;
	}
	return entry;
}

/** One folder in the other, or the same, compared without case: on macOS, Windows and phones `A2A/Log` is `A2A/log`. */
function overlaps(a: string, b: string): boolean {
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	return x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`);
}

/** How `folder` clashes with the A2A root or the router's own folders in it, or null. */
function reservedClash(folder: string, root: string): string | null {
	if (folder.toLowerCase() === root.toLowerCase() || root.toLowerCase().startsWith(`${folder.toLowerCase()}/`)) return `holds the A2A folder ${root}`;
	for (const own of [FOLDER.deadLetter, FOLDER.log, FOLDER.agents]) {
		if (overlaps(folder, `${root}/${own}`)) return `overlaps the ${own} folder ${root}/${own}`;
	}
	return null;
}

/**
 * `root` is the A2A root folder: a group's own folder may not overlap another group's, whether that
 * one is given in the registry or is the default `<root>/groups/<id>`.
 */
export function parseRegistry(text: string, root = DEFAULT_ROOT, source = "registry.yaml"): Registry {
	let data: unknown;
	const errors: RegistryError[] = [];
	try {
		data = text.trim() === "" ? {} : parseYamlSafe(text, (path) => errors.push({ where: path, message: "is defined twice; only the first definition is used" }));
	} catch (error) {
		const message = error instanceof YamlError ? error.message : String(error);
		return emptyRegistry([{ where: source, message }], false);
	}
	if (data === null || data === undefined) data = {};
	if (!isPlainObject(data)) return emptyRegistry([{ where: source, message: "must be a mapping with communication and groups" }], false);
	const communication = readCommunication(data.communication, errors);
	const groups = new Map<string, GroupEntry>();
	const candidates: { entry: GroupEntry | null; where: string }[] = [];
	const rawGroups = data.groups;
	if (Array.isArray(rawGroups)) {
		rawGroups.forEach((item, i) => {
			const where = `groups[${i}]`;
			candidates.push({ entry: readEntry(null, item, where, errors), where });
		});
	} else if (isPlainObject(rawGroups)) {
		for (const [key, item] of Object.entries(rawGroups)) {
			const where = `groups.${key}`;
			candidates.push({ entry: readEntry(key, item, where, errors), where });
		}
	} else if (rawGroups !== undefined && rawGroups !== null) {
		errors.push({ where: "groups", message: `must be a mapping or a list of groups, got ${describeValue(rawGroups)}` });
	}
	for (const { entry, where } of candidates) {
		if (!entry) continue;
		if (groups.has(entry.id)) {
			errors.push({ where, message: `group id "${entry.id}" is defined twice; only the first definition is used` });
			continue;
		}
		const sameFolder = [...groups.keys()].find((id) => id.toLowerCase() === entry.id.toLowerCase());
		if (sameFolder !== undefined) {
			errors.push({ where, message: `group id "${entry.id}" differs from "${sameFolder}" only in case: they would share one folder on macOS, Windows and phones; only "${sameFolder}" is used` });
			continue;
		}
		const folderOf = (g: GroupEntry) => g.folder ?? `${root}/${FOLDER.groups}/${g.id}`;
		const reserved = reservedClash(folderOf(entry), root);
		if (reserved) {
			errors.push({ where, message: `folder "${entry.folder}" ${reserved}: a group's notes would be taken for the router's own` });
			continue;
		}
		const clash = [...groups.values()].find((g) => overlaps(folderOf(g), folderOf(entry)));
		if (clash) {
			errors.push({ where, message: `folder "${entry.folder}" overlaps the folder of group "${clash.id}"` });
			continue;
		}
		groups.set(entry.id, entry);
	}
	return { communication, groups, errors, usable: true, warnings: [] };
}

/** The registry written as a note (`registry.md`): its frontmatter holds the same mapping. */
export function parseRegistryNote(text: string, root = DEFAULT_ROOT): Registry {
	const split = splitNote(text);
	if (!split.hasFrontmatter) return emptyRegistry([{ where: "registry.md", message: "has no frontmatter: the registry goes between two --- lines at the top of the note" }], false);
	return parseRegistry(split.yaml, root, "registry.md");
}

/** The group `a2a serve` writes inbound requests from: the one marked `gateway: true`, else `a2a-gateway`. */
export function gatewayGroup(registry: Registry): string {
	for (const group of registry.groups.values()) if (group.gateway) return group.id;
	return DEFAULT_GATEWAY_GROUP;
}

export function describeRegistryError(error: RegistryError): string {
	return `${error.where}: ${error.message}`;
}
