import { moveUnderFreeName } from "./free-names";
import type { VaultPort } from "./vault-port";

// How the router moves a note it already stamped (an answered request to its archive): under the
// first free name of the fixed sequence of src/core/file-names.ts, never over another note.

export class NoteWriter {
	private readonly folders = new Set<string>();

	constructor(private readonly port: VaultPort) {}

	/** Moves a note into `folder` under the first free name; null when the note is gone. */
	async move(from: string, folder: string, fileName: string, messageId: string): Promise<string | null> {
		if (!this.folders.has(folder)) {
			await this.port.ensureFolder(folder);
			this.folders.add(folder);
		}
		return moveUnderFreeName(this.port, from, folder, fileName, messageId);
	}
}
