import { isMap, isSeq, parseDocument } from "yaml";
import type { Document } from "yaml";
import { splitNote } from "./frontmatter";
import { describeRegistryError, isGroupId, parseRegistry, reservedGroupReason } from "./registry";
import { asSentence, groupIdReason } from "./group-reasons";

// Edits of the registry made from the settings (add, rename, describe or remove a group; the
// communication settings), applied to the registry's text so that everything else in it (comments,
// order, other keys) stays as the user wrote it. The registry is `registry.yaml`, or the frontmatter
// of `registry.md`. An edit that would make the registry worse is refused with the reason.

export type CommunicationKey = "max_hops" | "timeout_seconds" | "retry_attempts";

export type RegistryEdit =
	| { op: "set-communication"; key: CommunicationKey; value: number }
	| { op: "add-group"; id: string; description?: string; gateway?: true }
	| { op: "set-group"; id: string; field: "description" | "url" | "token_secret"; value: string }
	| { op: "rename-group"; id: string; to: string }
	| { op: "remove-group"; id: string };

export type EditResult = { ok: true; text: string } | { ok: false; error: string };

const MINIMUM: Record<CommunicationKey, number> = { max_hops: 1, timeout_seconds: 1, retry_attempts: 0 };

/** The path in the YAML document of a group's entry (a mapping keyed by id, or a list of entries with id). */
function groupPath(doc: Document, id: string): (string | number)[] | null {
	const groups = doc.get("groups");
	if (isMap(groups)) {
		if (doc.hasIn(["groups", id])) return ["groups", id];
		return null;
	}
	if (isSeq(groups)) {
		const i = groups.items.findIndex((item) => isMap(item) && item.get("id") === id);
		return i >= 0 ? ["groups", i] : null;
	}
	return null;
}

function apply(doc: Document, edit: RegistryEdit, known: string[]): string | null {
	if (edit.op === "set-communication") {
		if (!Number.isInteger(edit.value) || edit.value < MINIMUM[edit.key]) return `Enter a whole number of at least ${MINIMUM[edit.key]}.`;
		doc.setIn(["communication", edit.key], edit.value);
		return null;
	}
	if (edit.op === "add-group" || edit.op === "rename-group") {
		const id = edit.op === "add-group" ? edit.id.trim() : edit.to.trim();
		if (!isGroupId(id)) return `${groupIdReason(id)}.`;
		const reserved = reservedGroupReason(id);
		if (reserved !== null) return asSentence(reserved);
		const clash = known.find((k) => k.toLowerCase() === id.toLowerCase() && (edit.op === "add-group" || k !== edit.id));
		if (clash) return `A group "${clash}" exists already.`;
	}
	if (edit.op === "add-group") {
		const groups = doc.get("groups");
		const entry = { ...(edit.description ? { description: edit.description } : {}), ...(edit.gateway ? { gateway: true } : {}) };
		if (isSeq(groups)) groups.add(doc.createNode({ id: edit.id.trim(), ...entry }));
		else doc.setIn(["groups", edit.id.trim()], doc.createNode(entry));
		return null;
	}
	const path = groupPath(doc, edit.id);
	if (!path) return `The registry has no group "${edit.id}".`;
	if (edit.op === "remove-group") {
		doc.deleteIn(path);
		return null;
	}
	if (edit.op === "set-group") {
		const value = edit.value.trim();
		if (value === "") doc.deleteIn([...path, edit.field]);
		else doc.setIn([...path, edit.field], value);
		return null;
	}
	// Rename: a list entry changes its id; a mapping key is replaced where it stands.
	const groups = doc.get("groups");
	if (isSeq(groups)) doc.setIn([...path, "id"], edit.to.trim());
	else if (isMap(groups)) {
		const pair = groups.items.find((p) => (p.key as { value?: unknown } | null)?.value === edit.id || p.key === edit.id);
		if (!pair) return `The registry has no group "${edit.id}".`;
		pair.key = doc.createNode(edit.to.trim());
	}
	return null;
}

/** Applies one edit to the registry's text (`note`: the text of registry.md). */
export function editRegistryText(text: string, edit: RegistryEdit, root: string, note = false): EditResult {
	const split = note ? splitNote(text) : null;
	if (note && !split?.hasFrontmatter) return { ok: false, error: "registry.md has no frontmatter to hold the registry." };
	const yamlText = split ? split.yaml : text;
	const before = parseRegistry(yamlText, root);
	if (!before.usable) return { ok: false, error: `The registry does not parse: ${before.errors.map(describeRegistryError).join("; ")}` };
	const doc = parseDocument(yamlText);
	if (doc.contents === null) doc.contents = doc.createNode({}) as never;
	if (!isMap(doc.contents)) return { ok: false, error: "The registry is not a mapping." };
	const problem = apply(doc, edit, [...before.groups.keys()]);
	if (problem) return { ok: false, error: problem };
	const yaml = doc.toString();
	const after = parseRegistry(yaml, root);
	if (after.errors.length > before.errors.length) {
		return { ok: false, error: `The registry would have a problem: ${after.errors.map(describeRegistryError).slice(before.errors.length).join("; ")}` };
	}
	if (!split) return { ok: true, text: yaml };
	const eol = split.eol;
	return { ok: true, text: `${split.bom}---${eol}${yaml.replace(/\n/g, eol)}---${eol}${split.body}` };
}
