import type { EventRef } from "obsidian";
import type { LeaseRecord } from "../core/lease";
import type { RoutingDecision } from "../core/decision";
import type { VaultLayout } from "../core/layout";
import type { MessageIndex } from "../core/message-index";
import type { QueueSummary } from "../core/queues";
import type { Registry } from "../core/registry";
import type { RoutingContext } from "../core/routing";
import { TWO_ROUTERS } from "../router/housekeeping";
import { RELAY_CHANGED } from "./relay";
import type { Relay } from "./relay";

// What the view, the modals and the commands may read of the relay: its current layout, registry,
// index and queues, and when they change. Read-only, and always the relay's current router (a new
// root folder replaces it).

export interface RelayState {
	layout(): VaultLayout;
	registry(): Registry;
	index(): MessageIndex;
	queues(): QueueSummary;
	/** The latest routing decisions, newest first. */
	recent(): readonly RoutingDecision[];
	/** The router lease file (a retry holds it while it requeues a dead letter). */
	leasePath(): string;
	/** The context the router would decide with at `now` (to predict its verdicts). */
	routing(now: number): RoutingContext;
	/** Which device routes: this one (held), or why it stands by, and the lease as last read. */
	router(): RouterStatus;
	onChanged(listener: () => void): EventRef;
	/** True when a pass found that two devices routed at once (a conflict copy of the lease). */
	twoRoutersSeen(): boolean;
}

export interface RouterStatus {
	/** This device holds the lease and routes. */
	held: boolean;
	/** Why this device does not route now (another device holds the lease), or "". */
	standby: string;
	/** The lease note's record as the router last read it. */
	record: LeaseRecord | null;
}

export function relayState(relay: Relay): RelayState {
	return {
		layout: () => relay.router.layout,
		registry: () => relay.router.registry,
		index: () => relay.router.index,
		queues: () => relay.queues(),
		recent: () => relay.recent,
		leasePath: () => relay.router.layout.leasePath,
		routing: (now) => ({ registry: relay.router.registry, layout: relay.router.layout, index: relay.router.index, now }),
		router: () => {
			const lease = relay.router.lease.state();
			return { held: lease.held, standby: relay.standby, record: lease.record };
		},
		onChanged: (listener) => relay.events.on(RELAY_CHANGED, listener),
		twoRoutersSeen: () => relay.warnings.some((w) => w.text.startsWith(TWO_ROUTERS)),
	};
}
