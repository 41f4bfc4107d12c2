import { v4 as uuidv4 } from "uuid";

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A new message or trace id: a random (version 4) UUID. */
export function newId(): string {
	return uuidv4();
}

/** The protocol accepts any UUID-shaped trace id (8-4-4-4-12 hex), whatever its version. */
export function isUuidShaped(value: unknown): value is string {
	return typeof value === "string" && UUID_SHAPE.test(value);
}

/** Message ids are chosen by agents; they must stay printable and short enough to index. */
export function isAcceptableMessageId(value: unknown): value is string {
	// eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
	return typeof value === "string" && value.length > 0 && value.length <= 128 && !/[\u0000-\u001f\u007f]/.test(value) && value.trim() === value;
}

export function shortId(id: string): string {
	return id.replace(/[^A-Za-z0-9]/g, "").slice(0, 8) || "id";
}
