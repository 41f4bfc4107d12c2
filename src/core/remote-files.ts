import { UNSAFE_NAME_CHARACTERS } from "./file-names";
import { shortHash } from "./hash";

// File bytes a remote agent sends in its answer (A2A `raw` parts) are data: they are saved as they
// came (text, an image, a PDF) under the requester's `artifacts/` folder with a name made safe here,
// never at a path the remote chose.

export interface RemoteFile {
	/** The name the remote gave (untrusted). */
	name: string;
	/** The bytes, base64 as on the wire. */
	base64: string;
}

export type RemoteFileBytes = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

const MAX_NAME = 100;

/** A file name for what the remote called `name`: its last segment, cleaned, never hidden, never empty. */
export function safeArtifactName(name: string): string {
	const last = name.split(/[/\\]/).pop() ?? "";
	let cleaned = last.normalize("NFC").replace(UNSAFE_NAME_CHARACTERS, "-").trim().replace(/^[.\s]+/, "").replace(/[.\s]+$/, "");
	if (cleaned.replace(/[.\s-]/g, "") === "") cleaned = `file-${shortHash(name, 8)}`;
	if (cleaned.length > MAX_NAME) {
		const dot = cleaned.lastIndexOf(".");
		const ext = dot > 0 && cleaned.length - dot <= 12 ? cleaned.slice(dot) : "";
		cleaned = `${cleaned.slice(0, MAX_NAME - ext.length)}${ext}`;
	}
	return cleaned;
}

/** The names to try for a saved file: the safe name, then numbered ones before its extension. */
export function artifactNames(name: string, count = 50): string[] {
	const safe = safeArtifactName(name);
	const dot = safe.lastIndexOf(".");
	const [stem, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ""];
	return Array.from({ length: count }, (_, i) => (i === 0 ? safe : `${stem}-${i + 1}${ext}`));
}

/** The file's bytes, as the remote sent them. */
export function remoteFileBytes(file: RemoteFile): RemoteFileBytes {
	try {
		const binary = atob(file.base64);
		return { ok: true, bytes: Uint8Array.from(binary, (c) => c.charCodeAt(0)) };
	} catch {
		return { ok: false, reason: "its bytes are not valid base64" };
	}
}
