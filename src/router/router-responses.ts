import type { VaultLayout } from "../core/layout";
import { joinPath } from "../core/paths";
import { routerResponse } from "../core/responses";
import type { RouterResponseInput } from "../core/responses";
import type { IndexSync } from "./index-sync";
import type { VaultPort } from "./vault-port";

// A response the router writes itself (src/core/responses.ts: an error for a rejected note, a
// timeout) goes into the sender's inbox once: its name derives from what it reports, so writing it
// again after an interruption finds it there and writes nothing.

/** Writes an error or timeout response into the sender's inbox, and indexes it; nothing when the sender has no inbox. */
export async function sendRouterResponse(port: VaultPort, layout: VaultLayout, indexSync: IndexSync, input: RouterResponseInput): Promise<void> {
	const inbox = layout.box(input.sender, "inbox");
	if (!inbox) return;
	const response = routerResponse(input);
	const path = joinPath(inbox, response.fileName);
	await port.ensureFolder(inbox);
	if (await port.create(path, response.text)) indexSync.indexText(path, response.text);
}
