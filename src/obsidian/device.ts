import { Platform } from "obsidian";
import type { App } from "obsidian";
import type { DeviceIdentity } from "../core/lease";
import { newId } from "../core/ids";
import type { LeaseObservations } from "../router/lease-keeper";
import type { RelaySettings } from "../settings";

// This app's identity in the router's lease, and what it has observed of the lease, kept in the
// app's local storage for this vault (never synced: it describes this device).

const DEVICE_KEY = "a2a-relay-device-id";
const OBSERVED_KEY = "a2a-relay-lease-observed";

export function deviceIdentity(app: App, settings: RelaySettings): DeviceIdentity {
	let device = app.loadLocalStorage(DEVICE_KEY) as unknown;
	if (typeof device !== "string" || device === "") {
		device = `obsidian-${newId()}`;
		app.saveLocalStorage(DEVICE_KEY, device);
	}
	const kind = Platform.isPhone ? "phone" : Platform.isMobile ? "tablet" : "desktop";
	return {
		device: device as string,
		name: settings.deviceName !== "" ? settings.deviceName : `Obsidian on this ${kind}`,
		// A phone is a poor router (it sleeps): it routes only until a desktop or a server takes over.
		yields: Platform.isMobile && settings.routeOnDevice === "automatic",
	};
}

export function localObservations(app: App): LeaseObservations {
	return {
		load: () => {
			const saved = app.loadLocalStorage(OBSERVED_KEY) as unknown;
			return typeof saved === "object" && saved !== null && typeof (saved as { key?: unknown }).key === "string" && typeof (saved as { since?: unknown }).since === "number"
				? (saved as { key: string; since: number })
				: null;
		},
		save: (observation) => app.saveLocalStorage(OBSERVED_KEY, observation),
	};
}
