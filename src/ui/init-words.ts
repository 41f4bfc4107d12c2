import type { InitResult } from "../actions/init-vault";
import { basename } from "../core/paths";
import { describeRegistryError } from "../core/registry";
import { INIT_TEXT } from "./strings";

/** What the notice of Create registry and group folders says: what was made, how many groups, the problems. */
export function describeInit(result: InitResult): string {
	const root = result.layout.root;
	const groups = result.layout.groupIds().length;
	const made: string[] = [];
	if (result.registryCreated) made.push(basename(result.registryPath));
	for (const id of result.groupsAdded) made.push(INIT_TEXT.made.gateway(id));
	if (result.folders.length > 0) made.push(INIT_TEXT.made.folders(result.folders.length));
	if (result.bases.length > 0) made.push(INIT_TEXT.made.bases(result.bases.length));
	if (result.propertyTypes.length > 0) made.push(INIT_TEXT.made.types(result.propertyTypes.length));
	const registry = result.registry.errors.length > 0 ? INIT_TEXT.registryProblems(result.registry.errors.map(describeRegistryError).join("; ")) : "";
	const problems = `${registry}${result.propertyTypesProblem ? INIT_TEXT.typesNotSet(result.propertyTypesProblem) : ""}`;
	return `${made.length === 0 ? INIT_TEXT.complete(root, groups) : INIT_TEXT.created(INIT_TEXT.list(made), root, groups)}${problems}`;
}
