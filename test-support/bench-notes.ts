import { PRIORITIES } from "../src/core/protocol";

// The vaults the benchmarks and the browser test's cost checks route: ten groups, requests of mixed
// priority in the outboxes, and a history (answered requests and their answers in the archives,
// rejected notes in the dead-letter folder) shaped like what the router leaves behind. As file maps,
// so that the same vault can be written to a disk (the CLI, bench/bench-vault.ts) or handed to the
// fake Obsidian's memory disk (the plugin, in Node or in the browser).

export const GROUPS = Array.from({ length: 10 }, (_, i) => `g${String(i).padStart(2, "0")}-group`);

export function registryText(): string {
	return `communication:\n  max_hops: 5\n  timeout_seconds: 3600\n  retry_attempts: 3\ngroups:\n${GROUPS.map((g) => `  ${g}:\n    description: bench group\n`).join("")}`;
}

const trace = (i: number) => `${(i + 1).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
const second = (i: number) => String(i % 60).padStart(2, "0");

/** Where request `i` goes: never to its own group. */
function target(i: number): string {
	const from = GROUPS[i % GROUPS.length];
	const to = GROUPS[(i + 1 + (i % 7)) % GROUPS.length];
	return to === from ? GROUPS[(i + 2) % GROUPS.length] : to;
}

export interface OutboxNote {
	from: string;
	to: string;
	/** The file name in the outbox (and in the inbox once delivered). */
	name: string;
	text: string;
}

/** Request `i` as an agent writes it into its group's outbox (priorities low, medium, high in turn). */
export function outboxNote(i: number): OutboxNote {
	const from = GROUPS[i % GROUPS.length];
	const to = target(i);
	const text = `---\nmessage_id: m-${i}\ntrace_id: ${trace(i)}\nhop_count: 0\nsource_group: ${from}\ntarget_group: ${to}\nrequest_type: query\npriority: ${PRIORITIES[i % 3]}\ncreated: 2026-01-01T00:00:${second(i)}Z\n---\n\n## Question\n\nMessage ${i}: what is the status of item ${i}?\n\n## Context\n\nBenchmark payload with some text to carry, ${"lorem ipsum ".repeat(8)}\n`;
	return { from, to, name: `msg-${i}.md`, text };
}

export function outboxPath(note: OutboxNote, root = "A2A"): string {
	return `${root}/groups/${note.from}/outbox/${note.name}`;
}

/** Archived request `i` (answered) or, every other one, the answer that closed it: in the archive of the group that holds it. */
function archivedNote(i: number): [string, string] {
	const n = Math.floor(i / 2);
	const from = GROUPS[n % GROUPS.length];
	const to = target(n);
	const at = `2026-01-01T00:${second(Math.floor(n / 60))}:${second(n)}.000Z`;
	if (i % 2 === 0) {
		const text = `---\nmessage_id: old-${n}\ntrace_id: ${trace(n)}\nhop_count: 0\nsource_group: ${from}\ntarget_group: ${to}\nrequest_type: query\npriority: ${PRIORITIES[n % 3]}\ncreated: ${at}\nkind: request\nroute:\n  - ${from}\nstate: answered\ndelivered_at: ${at}\nexpires_at: 2026-01-01T01:00:00.000Z\nattempt: 1\nanswered_at: ${at}\n---\n\n## Question\n\nArchived question ${n}: what was the status of item ${n}?\n\n## Context\n\n${"lorem ipsum ".repeat(8)}\n`;
		return [`A2A/groups/${to}/archive/old-${n}.md`, text];
	}
	const text = `---\nmessage_id: old-${n}-answer\ntrace_id: ${trace(n)}\nhop_count: 1\nsource_group: ${to}\ntarget_group: ${from}\nkind: response\nin_reply_to: old-${n}\nstatus: success\ncreated: ${at}\nprocessing_time_ms: 1200\nstate: delivered\ndelivered_at: ${at}\n---\n\n## Answer\n\nItem ${n} is done.\n`;
	return [`A2A/groups/${from}/archive/old-${n}-answer.md`, text];
}

function deadNote(i: number): [string, string] {
	const from = GROUPS[i % GROUPS.length];
	const text = `---\nmessage_id: dead-${i}\ntrace_id: ${trace(1_000_000 + i)}\nhop_count: 0\nsource_group: ${from}\ntarget_group: no-such-group\nrequest_type: query\ncreated: 2026-01-01T00:00:00.000Z\nstate: dead\ndead_at: 2026-01-01T00:00:01.000Z\nerror_code: GROUP_NOT_FOUND\nerror_message: "target_group no-such-group is not in the registry"\n---\n\n## Question\n\nA question for a group that does not exist (${i}).\n`;
	return [`A2A/dead-letter/dead-${i}.md`, text];
}

/** The registry and every group's folders, nothing in them. */
export function emptyVault(): Record<string, string> {
	return { "A2A/registry.yaml": registryText() };
}

/** `archived` notes spread over the ten archives and `dead` notes in the dead-letter folder. */
export function historyFiles(archived: number, dead: number): Record<string, string> {
	const files: Record<string, string> = {};
	for (let i = 0; i < archived; i++) {
		const [p, text] = archivedNote(i);
		files[p] = text;
	}
	for (let i = 0; i < dead; i++) {
		const [p, text] = deadNote(i);
		files[p] = text;
	}
	return files;
}
