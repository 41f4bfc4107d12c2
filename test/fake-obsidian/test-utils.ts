/** Helpers for the fake's self-tests (browser-safe). */
import type { TAbstractFile } from "../../test-support/fake-obsidian/files";
import { FakeHost, type FakeHostOptions } from "../../test-support/fake-obsidian/host";
import { MemoryDisk } from "../../test-support/fake-obsidian/memory-disk";

export function memoryHost(files: Record<string, string> = {}, options: Partial<FakeHostOptions> = {}): FakeHost {
	return new FakeHost({ disk: new MemoryDisk("Test Vault", files), ...options });
}

export interface Recorded {
	name: string;
	path: string;
	oldPath?: string;
}

/** Records the vault's events as {name, path, oldPath} (path read at delivery time). */
export function recordVaultEvents(host: FakeHost): Recorded[] {
	const out: Recorded[] = [];
	const vault = host.fakeApp.vault;
	for (const name of ["create", "modify", "delete"] as const) {
		vault.on(name, (file: TAbstractFile) => out.push({ name, path: file.path }));
	}
	vault.on("rename", (file, oldPath) => out.push({ name: "rename", path: file.path, oldPath }));
	return out;
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
