import type { InitResult } from "../actions/init-vault";
import { describeRegistryError } from "../core/registry";
import { INIT_TEXT } from "./strings";

/**
 * What the notice of Create registry and group folders says: which groups can now exchange
 * messages (not how many folders and property types were written), and the problems.
 */
export function describeInit(result: InitResult): string {
	const root = result.layout.root;
	const ids = result.layout.groupIds();
	const groups = ids.length;
	const made = result.registryCreated || result.groupsAdded.length > 0 || result.folders.length > 0 || result.bases.length > 0 || result.propertyTypes.length > 0;
	let text: string = INIT_TEXT.complete(root, groups);
	if (result.registryCreated) text = `${INIT_TEXT.ready(root, groups, INIT_TEXT.names(ids))}${result.bases.length > 0 ? INIT_TEXT.bases(result.bases.length) : ""}${INIT_TEXT.next}`;
	else if (made) text = `${INIT_TEXT.folders(root, groups)}${result.bases.length > 0 ? INIT_TEXT.bases(result.bases.length) : ""}`;
	for (const id of result.groupsAdded) text += INIT_TEXT.gatewayAdded(id);
	const registry = result.registry.errors.length > 0 ? INIT_TEXT.registryProblems(result.registry.errors.map(describeRegistryError).join("; ")) : "";
	return `${text}${registry}${result.propertyTypesProblem ? INIT_TEXT.typesNotSet(result.propertyTypesProblem) : ""}`;
}
