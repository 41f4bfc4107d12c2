// The types of the properties A2A Relay writes (README, "Properties"), as Obsidian stores them in
// its config folder's types.json ({"types": {"name": "text" | "number" | ...}}), so that the
// Properties view and Bases show dates as dates and numbers as numbers. Both `a2a init` and Create
// registry and group folders merge these into the file the same way: a name the file already has
// keeps its type (the user's choice, or an older one), only missing names are added, and every
// other key of the file stays as it is.

/** Obsidian's property type names (its "widgets") that these properties use. */
export type PropertyType = "text" | "number" | "datetime" | "checkbox" | "multitext";

const names = (type: PropertyType, list: string[]): [string, PropertyType][] => list.map((name) => [name, type]);

/** Every property the router and the commands write, with its type. */
export const PROPERTY_TYPES: Readonly<Record<string, PropertyType>> = Object.fromEntries([
	...names("text", ["message_id", "trace_id", "in_reply_to", "parent_id", "source_group", "target_group", "kind", "request_type", "status", "priority", "state"]),
	...names("text", ["error_code", "error_message", "generated_by", "remote_task_id", "original_file"]),
	...names("text", ["agent_id", "agent_role", "group", "last_action", "result"]),
	...names("number", ["hop_count", "timeout_seconds", "attempt", "retry_count", "processing_time_ms", "resent_attempt", "progress_percent"]),
	...names("multitext", ["route"]),
	...names("datetime", ["created", "delivered_at", "expires_at", "answered_at", "dead_at", "retried_at", "forwarded_at", "updated", "spawned_at"]),
	...names("checkbox", ["late"]),
]);

/** The file's name inside the config folder. */
export const PROPERTY_TYPES_FILE = "types.json";

export type TypesMerge =
	/** `text` is the file to write; `added` the names it sets (none: nothing to write). */
	| { ok: true; text: string; added: string[] }
	/** The file is not the JSON object Obsidian writes: it is left alone. */
	| { ok: false; problem: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * types.json with the missing names of `wanted` added. `existing` is the file's text, or null when
 * there is none. Obsidian matches property names without regard to case, and so does this.
 */
export function mergePropertyTypes(existing: string | null, wanted: Readonly<Record<string, PropertyType>> = PROPERTY_TYPES): TypesMerge {
	let data: unknown = {};
	if (existing !== null && existing.trim() !== "") {
		try {
			data = JSON.parse(existing);
		} catch {
			return { ok: false, problem: `${PROPERTY_TYPES_FILE} is not valid JSON` };
		}
	}
	if (!isObject(data)) return { ok: false, problem: `${PROPERTY_TYPES_FILE} does not hold an object` };
	const types = data.types ?? {};
	if (!isObject(types)) return { ok: false, problem: `"types" in ${PROPERTY_TYPES_FILE} is not an object` };
	const known = new Set(Object.keys(types).map((name) => name.toLowerCase()));
	const added = Object.keys(wanted).filter((name) => !known.has(name.toLowerCase()));
	if (added.length === 0) return { ok: true, text: existing ?? "", added };
	const merged = { ...types };
	for (const name of added) merged[name] = wanted[name];
	return { ok: true, text: `${JSON.stringify({ ...data, types: merged }, null, 2)}\n`, added };
}
