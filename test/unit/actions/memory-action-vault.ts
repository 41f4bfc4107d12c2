import type { ActionVault } from "../../../src/actions/vault";
import { MemoryVault } from "../../helpers/memory-vault";

// The in-memory vault of the router tests with the two questions the actions also ask.

export class MemoryActionVault extends MemoryVault implements ActionVault {
	exists(path: string): Promise<boolean> {
		const key = this.key(path);
		return Promise.resolve(this.files.has(key) || this.folders.has(key));
	}

	isFolder(path: string): Promise<boolean> {
		return Promise.resolve(this.folders.has(this.key(path)));
	}
}
