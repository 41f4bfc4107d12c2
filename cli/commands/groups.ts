import type { Router } from "../../src/router/router";
import { UsageError } from "../args";

/** The group id when the registry knows it; otherwise a usage error that lists the known groups. */
export function knownGroup(router: Router, id: string, flag: string): string {
	if (router.layout.hasGroup(id)) return id;
	const known = router.layout.groupIds();
	throw new UsageError(`${flag}: unknown group "${id}". Known groups: ${known.length > 0 ? known.join(", ") : "none (edit the registry or run a2a init)"}`);
}
