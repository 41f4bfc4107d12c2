import { vi } from "vitest";
import { NodeVault } from "../../node/node-vault";

// A disk that fails one file's reads, for tests of what the CLI and its servers do then. Tests run
// as root, where a mode of 000 does not stop a read: the failure is made at the Node vault's read.
// Undone by vi.restoreAllMocks().

/** An error as Node's file system gives it. */
export function fsError(code: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`${code}: failed`), { code });
}

/**
 * Reads of the vault paths `failing` names fail with `code` while it holds them, at most `times`
 * times each, and only the reads `which` picks by their options (the rest read as usual).
 * `attempts(path)` counts the reads of a path that failed.
 */
export function failReads(failing: Set<string>, code: string, times = Infinity, which: (options?: { maxBytes?: number }) => boolean = () => true): { attempts: (vaultPath: string) => number } {
	const read = NodeVault.prototype.read;
	const failed = new Map<string, number>();
	vi.spyOn(NodeVault.prototype, "read").mockImplementation(function (this: NodeVault, vaultPath, options) {
		if (failing.has(vaultPath) && (failed.get(vaultPath) ?? 0) < times && which(options)) {
			failed.set(vaultPath, (failed.get(vaultPath) ?? 0) + 1);
			return Promise.reject(fsError(code));
		}
		return read.call(this, vaultPath, options);
	});
	return { attempts: (vaultPath) => failed.get(vaultPath) ?? 0 };
}
