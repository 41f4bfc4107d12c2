import { unknownGroupReason } from "../src/core/group-reasons";
import type { VaultLayout } from "../src/core/layout";
import { UsageError } from "./args";

/** The group id when the registry knows it; otherwise a usage error in the plugin's and router's words. */
export function knownGroup(layout: VaultLayout, id: string, flag: string): string {
	if (layout.hasGroup(id)) return id;
	throw new UsageError(`${flag}: ${unknownGroupReason(id, layout.groupIds())}`);
}
