import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { A2A_VERSION_HEADER } from "@a2a-js/sdk";
import { A2A_ERROR_CODE } from "@a2a-js/sdk/errors";
import { terminalText } from "../../src/core/terminal-text";

// The HTTP side of `a2a serve` that the SDK leaves to its host: bodies read with a hard limit
// (refused before parsing), strict UTF-8 and JSON, the bearer token, JSON answers.

/** Request bodies larger than this are refused unread. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Refuses what is not UTF-8; decode() without `stream` keeps no state between calls, so one serves every request. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

export type BodyRead = { ok: true; text: string } | { ok: false; status: 413 | 400; message: string };

/** Reads a request body of at most MAX_BODY_BYTES, as UTF-8 (JSON is UTF-8: anything else is refused). */
export function readBody(req: IncomingMessage): Promise<BodyRead> {
	const declared = Number(req.headers["content-length"] ?? "0");
	if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return Promise.resolve({ ok: false, status: 413, message: `the request body is ${declared} bytes; the limit is ${MAX_BODY_BYTES} (1 MB)` });
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		const finish = (result: BodyRead) => {
			if (done) return;
			done = true;
			resolve(result);
		};
		req.on("data", (chunk: Buffer) => {
			if (done) return;
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				chunks.length = 0;
				req.pause();
				finish({ ok: false, status: 413, message: `the request body is larger than ${MAX_BODY_BYTES} bytes (1 MB)` });
				return;
			}
			chunks.push(chunk);
		});
		req.on("end", () => {
			try {
				finish({ ok: true, text: STRICT_UTF8.decode(Buffer.concat(chunks)) });
			} catch {
				finish({ ok: false, status: 400, message: "the request body is not valid UTF-8 (JSON must be UTF-8)" });
			}
		});
		req.on("error", () => finish({ ok: false, status: 400, message: "the request body could not be read" }));
	});
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	if (res.headersSent) {
		res.end();
		return;
	}
	const text = JSON.stringify(body);
	res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store", ...headers });
	res.end(text);
}

export function rpcError(id: unknown, code: number, message: string): { jsonrpc: "2.0"; id: unknown; error: { code: number; message: string } } {
	return { jsonrpc: "2.0", id: id ?? null, error: { code, message } };
}

/** The JSON-RPC id of a parsed request, when it is a valid one (else null). */
export function rpcId(body: unknown): string | number | null {
	if (typeof body !== "object" || body === null) return null;
	const id = (body as { id?: unknown }).id;
	return typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : null;
}

/** Why a parsed body is not a JSON-RPC 2.0 request (-32600), or null when it is one. */
export function invalidRequest(body: unknown): string | null {
	if (typeof body !== "object" || body === null || Array.isArray(body)) return Array.isArray(body) ? "batch requests are not supported: send one request per call" : "the body must be a JSON-RPC request object";
	const request = body as Record<string, unknown>;
	if (request.jsonrpc !== "2.0") return 'jsonrpc must be "2.0"';
	if (typeof request.method !== "string" || request.method === "") return "method must be a method name";
	if ("id" in request && rpcId(body) === null && request.id !== null) return "id must be a string, an integer or null";
	return null;
}

export const PARSE_ERROR = A2A_ERROR_CODE.PARSE_ERROR;
export const INVALID_REQUEST = A2A_ERROR_CODE.INVALID_REQUEST;

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** True when the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function hasToken(req: IncomingMessage, token: string): boolean {
	return tokenMatches(req.headers.authorization ?? "", token);
}

/** True when an authorization value is `Bearer <token>` (compared in constant time); HTTP and gRPC alike. */
export function tokenMatches(authorization: string, token: string): boolean {
	const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
	return match !== null && timingSafeEqual(digest(match[1]), digest(token));
}

/** True for a loopback address: only these may serve without a token. */
export function isLoopback(host: string): boolean {
	const h = host.replace(/^\[|\]$/g, "").toLowerCase();
	return h === "localhost" || h === "::1" || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/** A client-given text made safe for one log line: terminal-safe (src/core/terminal-text.ts), cut to `max`. */
export function logSafe(text: string, max = 200): string {
	const flat = terminalText(text);
	return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** True when the call names its A2A-Version. */
export function hasVersionHeader(req: IncomingMessage): boolean {
	const value = req.headers[A2A_VERSION_HEADER.toLowerCase()];
	return typeof value === "string" && value !== "";
}

/** True when a Host header names this machine: a loopback name or address, or the address the server is bound to. */
export function isLocalHost(header: string | undefined, bound: string): boolean {
	if (header === undefined) return true;
	const name = header.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1").toLowerCase();
	return name === "localhost" || name === "127.0.0.1" || name === "::1" || name === bound.toLowerCase() || /^127(\.\d{1,3}){3}$/.test(name);
}

/**
 * Why a call that may write must be refused as coming from a web page of another origin (a browser's
 * form or no-cors fetch needs no preflight): it carries an `Origin` other than the server's own, or
 * `Sec-Fetch-Site` says it is not same-origin; or its body has no declared type (a page cannot send
 * `application/json` to another origin without a preflight, which this server never grants; a
 * declared type that is not JSON is refused by the SDK's handlers). Null
 * when it may go on. A2A clients (SDKs, curl, agents) send no Origin and declare JSON.
 */
export function crossSiteRefusal(req: IncomingMessage): string | null {
	if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return null;
	const fetchSite = req.headers["sec-fetch-site"];
	if (fetchSite !== undefined && fetchSite !== "same-origin" && fetchSite !== "none") return `a call from a web page of another site (Sec-Fetch-Site: ${logSafe(String(fetchSite))}) is refused`;
	const origin = req.headers.origin;
	if (origin !== undefined) {
		let same = false;
		try {
			const url = new URL(origin);
			same = (url.protocol === "http:" || url.protocol === "https:") && url.host === (req.headers.host ?? "");
		} catch {
			same = false;
		}
		if (!same) return `a call from a web page of another origin (${logSafe(origin)}) is refused`;
	}
	const length = Number(req.headers["content-length"] ?? "0");
	const hasBody = req.headers["transfer-encoding"] !== undefined || length > 0;
	// A declared type that is not JSON is the SDK's to refuse (it does); an undeclared one it would take.
	if (hasBody && String(req.headers["content-type"] ?? "").trim() === "") return "the body must be declared JSON (Content-Type: application/json)";
	return null;
}
