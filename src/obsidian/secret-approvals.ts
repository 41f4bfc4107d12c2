import type { App } from "obsidian";
import { originOf } from "../core/remote-request";

// Which address each secret of Obsidian's secret storage may go to, as the user chose it on this
// device (in Settings → A2A Relay → Groups), kept in the app's local storage for this vault: never
// synced, never in the vault. Obsidian's secret storage is shared by every plugin, and the registry
// is written by anyone who can write the vault: without this, a registry edited elsewhere could name
// another plugin's secret, or move a group's url:, and have this device send the secret to an
// address of its choice. A secret goes only to an origin the user approved it for here.

const KEY = "a2a-relay-secret-origins";

export class SecretApprovals {
	constructor(private readonly app: App) {}

	private all(): Record<string, string[]> {
		const saved = this.app.loadLocalStorage(KEY) as unknown;
		if (typeof saved !== "object" || saved === null || Array.isArray(saved)) return {};
		const out: Record<string, string[]> = {};
		for (const [id, origins] of Object.entries(saved as Record<string, unknown>)) {
			if (Array.isArray(origins)) out[id] = origins.filter((o): o is string => typeof o === "string");
		}
		return out;
	}

	/** The user chose secret `id` for a group whose url is `url`, on this device. */
	approve(id: string, url: string): void {
		const origin = originOf(url);
		if (origin === null || id === "") return;
		const all = this.all();
		const origins = all[id] ?? [];
		if (!origins.includes(origin)) all[id] = [...origins, origin];
		this.app.saveLocalStorage(KEY, all);
	}

	/** True when the user approved secret `id` for `url`'s origin on this device. */
	approved(id: string, url: string): boolean {
		const origin = originOf(url);
		return origin !== null && (this.all()[id] ?? []).includes(origin);
	}
}
