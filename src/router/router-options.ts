import type { DeviceIdentity, RouteOnDevice } from "../core/lease";
import type { ForwarderOptions } from "./forwarder";
import type { HistoryCacheStore } from "./history-cache";
import type { LeaseObservations, LocalLock } from "./lease-keeper";

// What a host (the plugin, the CLI, a test) chooses about its router.

export interface RouterOptions {
	root?: string;
	clock?: () => number;
	/** How long a note that does not parse, is invalid or is being edited may wait for its writer (rule 2). */
	graceMs?: number;
	/** Who routes: the lease names this device. */
	identity?: DeviceIdentity;
	mode?: () => RouteOnDevice;
	/** The sync margin: how long another device's lease must be seen unchanged before taking over. */
	marginMs?: number;
	monotonic?: () => number;
	observations?: LeaseObservations;
	localLock?: LocalLock;
	/** True for a note open in an editor (inside Obsidian). */
	isEditing?: (path: string) => boolean;
	/** Lets a host app breathe during long indexing. */
	yieldNow?: () => Promise<void>;
	/**
	 * A registry that becomes unusable (missing, or not YAML: an editor saving it, a sync replacing
	 * it) does not stop a router that had a usable one: it routes on with that one (see
	 * `unusableRegistry`) until the registry can be used again. Off: an unusable registry stops routing.
	 */
	keepLastGoodRegistry?: boolean;
	/**
	 * A group added to the registry while this router runs gets its inbox, outbox and archive at
	 * once. For a router that reads the registry only when it is saved whole (`a2a route --watch`);
	 * off inside Obsidian, which saves a note while it is typed (every prefix of a new id would get
	 * folders), and off for one-shot commands.
	 */
	boxesForNewGroups?: boolean;
	/**
	 * One pass and out (a one-shot `a2a route`): of a long history, only what the pass's decisions and
	 * its inboxes' upkeep ask about is read, never the rest after routing, and the history read is
	 * kept after the pass. Off: a router that runs on reads the rest once the waiting notes are
	 * routed, so that its index follows the whole history from then on.
	 */
	historyAsNeeded?: boolean;
	/** A device-local copy of the history's index entries (src/router/history-cache.ts); without it the history is read whole. */
	historyCache?: HistoryCacheStore;
	/** How requests to remote groups (`url:`) are sent; without it they wait in the remote group's inbox. */
	remotes?: ForwarderOptions;
}
