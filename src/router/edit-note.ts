import type { ReadFile, VaultPort } from "./vault-port";

// A read-edit-write of one note that never loses a write made by someone else in between: the note
// is replaced only if it is still what was read, and read again otherwise.

export async function editNote(port: Pick<VaultPort, "read" | "replace">, path: string, edit: (text: string) => string, attempts = 5): Promise<ReadFile | null> {
	for (let i = 0; i < attempts; i++) {
		const read = await port.read(path);
		if (!read) return null;
		const text = edit(read.text);
		if (text === read.text) return read;
		const result = await port.replace(path, text, read);
		if (result === "done") return { ...read, text };
		if (result === "missing") return null;
	}
	throw new Error(`${path} kept changing while it was being edited; try again`);
}
