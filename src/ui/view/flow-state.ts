import type { App } from "obsidian";
import type { RoutingDecision } from "../../core/decision";
import type { LogRow } from "../../core/routing-log";
import type { GroupQueue } from "../../core/queues";
import { basename } from "../../core/paths";
import { describeRegistryError } from "../../core/registry";
import { parseTime } from "../../core/time";
import type { IndexEntry } from "../../core/message-index";
import { VIEW_TEXT } from "../strings";

const ANSWER = VIEW_TEXT.answerType;
import type { RelayState } from "../../obsidian/relay-state";

// What the message flow section shows, read from the relay (the core computed all of it): queue
// counts per group, the dead-letter notes newest first, the latest routing decisions (this
// session's, else the routing log's) with each message's state now, and which device routes.

const RECENT_SHOWN = 10;
const DEAD_LETTERS_SHOWN = 50;

/** One row of the dead-letter list. */
export interface DeadLetterRow {
	path: string;
	/** "from → to", or "" when the note did not say. */
	route: string;
	/** The request type, or "answer" for a response. */
	type?: string;
	messageId?: string;
	errorCode?: string;
	errorMessage?: string;
	deadAt: number | null;
}

/** One routing decision, as the sidebar lists it. */
export interface DecisionRow {
	outcome: string;
	messageId?: string;
	/** The note's name (the router keeps it when it moves the note on). */
	name: string;
	/** Where the note was put by the decision, when known (this session's decisions). */
	path?: string;
	errorCode?: string;
	route: string;
	/** The request type, or "answer" for a response (when the index knows the message). */
	type?: string;
	reason?: string;
	time: number;
	/** The message's state now (taken, answered, late...), when it differs from the outcome. */
	now?: string;
	late?: boolean;
}

/** A group's queue counts, and the address of its remote agent for a `url:` group. */
export type FlowGroup = GroupQueue & { url?: string };

/** Which device routes, as the sidebar says it (no renewal times: they change every few seconds). */
export interface RouterLine {
	held: boolean;
	standby: string;
	/** The lease holder's device id and name, unless the lease was released. */
	holderDevice: string | null;
	holderName: string | null;
}

export interface FlowState {
	registryPath: string;
	registryExists: boolean;
	registryErrors: string[];
	groups: FlowGroup[];
	inFlight: number;
	overdue: number;
	deadLetterCount: number;
	deadLetters: DeadLetterRow[];
	recent: DecisionRow[];
	router: RouterLine;
	/** A sync conflict copy of the router lease note exists. */
	leaseConflict: boolean;
}

function fromDecision(d: RoutingDecision): DecisionRow {
	const route = d.source_group || d.target_group ? `${d.source_group ?? "?"} → ${d.target_group ?? "?"}` : "";
	return { outcome: d.outcome, messageId: d.message_id, name: basename(d.path), path: d.path, errorCode: d.error_code, route, reason: d.reason, time: d.time };
}

/** A row of the routing log note of `day` (YYYY-MM-DD, UTC). */
export function fromLogRow(row: LogRow, day: string): DecisionRow {
	const time = parseTime(`${day}T${row.time}Z`);
	return { outcome: row.outcome, messageId: row.messageId || undefined, name: row.name, errorCode: row.errorCode || undefined, route: row.route.replace(" -> ", " → "), time: Number.isNaN(time) ? 0 : time };
}

/** What kind of message an entry is, in a word: its request type, or an answer. */
function typeOf(entry: IndexEntry): string | undefined {
	return entry.requestType ?? (entry.kind === "response" ? ANSWER : undefined);
}

function routeOf(entry: { sourceGroup?: string; targetGroup?: string }): string {
	return entry.sourceGroup || entry.targetGroup ? `${entry.sourceGroup ?? "?"} → ${entry.targetGroup ?? "?"}` : "";
}

/** Adds what happened to the message since the decision (taken by its requester, answered late). */
function withNow(state: RelayState, row: DecisionRow): DecisionRow {
	if (!row.messageId) return row;
	const entries = state.index().withId(row.messageId);
	const entry = entries.find((e) => basename(e.path) === row.name) ?? entries[0];
	if (!entry) return row;
	const type = typeOf(entry);
	const now = entry.state && entry.state !== row.outcome && !(row.outcome === "delivered" && entry.state === "delivered") ? entry.state : undefined;
	return { ...row, now, late: entry.late, ...(type ? { type } : {}), ...(row.route === "" ? { route: routeOf(entry) } : {}) };
}

/** Sync conflict copies of the lease note (Obsidian Sync, Syncthing, Dropbox name them so). */
function hasLeaseConflict(app: App, leasePath: string): boolean {
	const folder = app.vault.getFolderByPath(leasePath.slice(0, Math.max(0, leasePath.lastIndexOf("/"))) || "/");
	const stem = basename(leasePath).replace(/\.md$/, "");
	return (folder?.children ?? []).some((f) => f.path !== leasePath && f.name.startsWith(stem) && /conflict/i.test(f.name));
}

function routerLine(state: RelayState): RouterLine {
	const { held, standby, record } = state.router();
	const holding = record !== null && !record.released;
	return { held, standby, holderDevice: holding ? record.device : null, holderName: holding ? record.name : null };
}

export function readFlowState(app: App, state: RelayState, logRows: readonly DecisionRow[]): FlowState {
	const registryPath = state.layout().registryPath;
	const notePath = state.layout().registryNotePath;
	const registryExists = app.vault.getAbstractFileByPath(registryPath) !== null || app.vault.getAbstractFileByPath(notePath) !== null;
	const queues = state.queues();
	const dead: DeadLetterRow[] = [];
	for (const entry of state.index().deadLetters()) {
		const deadAt = parseTime(entry.deadAt);
		dead.push({ path: entry.path, route: routeOf(entry), type: typeOf(entry), messageId: entry.messageId, errorCode: entry.errorCode, errorMessage: entry.errorMessage, deadAt: Number.isNaN(deadAt) ? null : deadAt });
	}
	dead.sort((a, b) => (b.deadAt ?? 0) - (a.deadAt ?? 0) || (a.path < b.path ? 1 : a.path > b.path ? -1 : 0));
	const session = state.recent().slice(0, RECENT_SHOWN).map(fromDecision);
	const recent = (session.length > 0 ? session : logRows.slice(0, RECENT_SHOWN)).map((row) => withNow(state, row));
	return {
		registryPath: app.vault.getAbstractFileByPath(registryPath) === null && app.vault.getAbstractFileByPath(notePath) !== null ? notePath : registryPath,
		registryExists,
		registryErrors: registryExists ? state.registry().errors.map(describeRegistryError) : [],
		groups: queues.groups.map((g) => {
			const url = state.registry().groups.get(g.group)?.url;
			return url === undefined ? g : { ...g, url };
		}),
		inFlight: queues.groups.reduce((n, g) => n + g.inFlight, 0),
		overdue: queues.groups.reduce((n, g) => n + g.overdue, 0),
		deadLetterCount: queues.deadLetters,
		deadLetters: dead.slice(0, DEAD_LETTERS_SHOWN),
		recent,
		router: routerLine(state),
		leaseConflict: hasLeaseConflict(app, state.leasePath()) || state.twoRoutersSeen(),
	};
}
