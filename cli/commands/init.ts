import type { ParsedArgs } from "../args";
import { createVaultFolderIfMissing, openSession } from "../session";
import type { Session } from "../session";
import { EXAMPLE_REGISTRY } from "../../src/core/example-registry";

export const INIT_HELP = `Usage: a2a init [--vault DIR] [--root NAME] [--json]

Creates the vault folder DIR when it does not exist; <root>/registry.yaml (with the example groups
of the A2A Communicator) when it is absent; and the inbox, outbox and archive folders of every
registry group, plus agents/, dead-letter/ and log/. Never overwrites anything that exists.`;

export async function runInit(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const vaultCreated = await createVaultFolderIfMissing(args);
	const session = await openSession(args, io);
	const { vault, router } = session;
	const created: string[] = [];
	if (await vault.create(router.layout.registryPath, EXAMPLE_REGISTRY)) created.push(router.layout.registryPath);
	await router.loadRegistry();
	const folders = [router.layout.agentsFolder, router.layout.deadLetterFolder, router.layout.logFolder, ...router.messageFolders()];
	for (const folder of folders) {
		if (!(await vault.isFolder(folder))) created.push(folder);
		await vault.ensureFolder(folder);
	}
	for (const error of router.registry.errors) io.err(`registry error: ${error.where}: ${error.message}`);
	if (session.json) io.out(JSON.stringify({ vault: vault.dir, vault_created: vaultCreated, created, groups: router.layout.groupIds(), registry_errors: router.registry.errors.length }));
	else {
		if (vaultCreated) io.out(`created folder ${vault.dir}`);
		for (const item of created) io.out(`created ${item}`);
		io.out(created.length === 0 ? "Nothing to do: the vault is already set up." : `Ready: ${router.layout.groupIds().length} groups in ${router.layout.registryPath}.`);
	}
	return router.registry.usable && router.registry.errors.length === 0 ? 0 : 2;
}
