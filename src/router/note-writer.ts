import { sameApartFromTimes } from "../core/copies";
import { candidateNames } from "../core/file-names";
import { joinPath } from "../core/paths";
import type { ReadFile, VaultPort } from "./vault-port";

// How the router writes notes: a new note is created under the first free name of a fixed sequence
// (never over another note), and a note is moved under such a name. A router interrupted after
// writing a note and before removing its source finds its earlier copy again at one of those names.

export interface Committed {
	path: string;
	/** The note was there already: an earlier, interrupted pass wrote it. */
	existed: boolean;
}

/** Thrown when no name of the sequence is free: the pass reports it and goes on. */
export class NoFreeNameError extends Error {
	constructor(fileName: string, folder: string) {
		super(`no free name for ${fileName} in ${folder}`);
		this.name = "NoFreeNameError";
	}
}

export class NoteWriter {
	private readonly folders = new Set<string>();

	constructor(private readonly port: VaultPort) {}

	private async ensure(folder: string): Promise<void> {
		if (this.folders.has(folder)) return;
		await this.port.ensureFolder(folder);
		this.folders.add(folder);
	}

	/**
	 * Creates `text` in `folder` under the first free name made from `fileName` and `messageId`. A
	 * name that holds the same note already (the same text apart from the router's times) is this
	 * note, written by an interrupted pass: nothing is written again.
	 */
	async commit(folder: string, fileName: string, messageId: string, text: string, basis?: ReadFile): Promise<Committed> {
		await this.ensure(folder);
		for (const name of candidateNames(fileName, messageId)) {
			const path = joinPath(folder, name);
			if (await this.port.create(path, text, basis)) return { path, existed: false };
			const there = await this.port.read(path);
			if (there && sameApartFromTimes(there.text, text, path)) return { path, existed: true };
		}
		throw new NoFreeNameError(fileName, folder);
	}

	/** Moves a note into `folder` under the first free name; null when the note is gone. */
	async move(from: string, folder: string, fileName: string, messageId: string): Promise<string | null> {
		await this.ensure(folder);
		for (const name of candidateNames(fileName, messageId)) {
			const to = joinPath(folder, name);
			const result = await this.port.move(from, to);
			if (result === "moved") return to;
			if (result === "missing") return null;
		}
		throw new NoFreeNameError(fileName, folder);
	}
}
