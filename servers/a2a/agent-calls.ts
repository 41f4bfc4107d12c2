import type * as http from "node:http";
import { A2A_VERSION_HEADER } from "@a2a-js/sdk";
import { isV1JsonRpcMethod } from "@a2a-js/sdk/compat/v0_3";
import { A2A_ERROR_CODE, RequestMalformedError, toRestErrorBody } from "@a2a-js/sdk/errors";
import { callSignals } from "./agent-app";
import type { AgentApps } from "./agent-app";
import { INVALID_REQUEST, PARSE_ERROR, hasVersionHeader, invalidRequest, readBody, rpcError, rpcId, sendJson } from "./http-io";
import { RETRY_AFTER_SECONDS, restWaits, rpcWaits } from "./waiting-calls";
import type { WaitingGate } from "./waiting-calls";

// A call of `a2a serve` that reached its agent, on its way to the SDK's handlers (agent-app.ts): the
// HTTP server (http-server.ts) has checked its host and token and found the agent and the binding.
// Here its body is read within the limit (413, unread), checked as UTF-8 and JSON (-32700) and, for
// JSON-RPC, as a request (-32600); a call that waits is counted against the bound every listener
// shares (503 with Retry-After past it); then the SDK's handler gets the call with the signal that
// its client went away.

/**
 * The reason a call's signal gives once its response closed. One object for every call: without
 * a reason, abort() builds a DOMException with its stack for each call (1 to 2 % of a2a serve's
 * CPU per message under 200 clients), and nothing reads the reason.
 */
const CALL_ENDED = Object.freeze(new Error("the call ended"));

export class AgentCalls {
	private readonly inFlight = new Set<AbortController>();

	constructor(private readonly waiting: WaitingGate) {}

	/** Reads the body (within the limit); false when it answered the client already. */
	private async body(req: http.IncomingMessage, res: http.ServerResponse, rest: boolean): Promise<{ text: string } | null> {
		const read = await readBody(req);
		if (read.ok) return { text: read.text };
		if (read.status === 413) {
			// The rest of an oversized body is never read: the connection goes once the answer is out.
			res.on("finish", () => req.socket.destroy());
			sendJson(res, 413, rest ? toRestErrorBody(new RequestMalformedError(read.message), 413) : rpcError(null, INVALID_REQUEST, read.message), { Connection: "close" });
		} else if (rest) sendJson(res, 400, toRestErrorBody(new RequestMalformedError(read.message), 400));
		else sendJson(res, 200, rpcError(null, PARSE_ERROR, read.message));
		return null;
	}

	/** A JSON-RPC call (POST to the agent's URL); returns the method it called, when it called one. */
	async rpcCall(apps: AgentApps, req: http.IncomingMessage, res: http.ServerResponse): Promise<string | undefined> {
		const read = await this.body(req, res, false);
		if (!read) return undefined;
		let body: unknown;
		try {
			body = JSON.parse(read.text);
		} catch (error) {
			sendJson(res, 200, rpcError(null, PARSE_ERROR, `the body is not JSON: ${(error as Error).message}`));
			return undefined;
		}
		const invalid = invalidRequest(body);
		if (invalid) {
			sendJson(res, 200, rpcError(rpcId(body), INVALID_REQUEST, invalid));
			return undefined;
		}
		const { method, params } = body as { method: string; params?: unknown };
		// Be liberal in what is accepted: a v1.0 method needs no header to be served as v1.0.
		if (!hasVersionHeader(req) && isV1JsonRpcMethod(method)) req.headers[A2A_VERSION_HEADER.toLowerCase()] = "1.0";
		if (rpcWaits(method, params) && !this.admitWaiting(res, () => sendJson(res, 503, rpcError(rpcId(body), A2A_ERROR_CODE.INTERNAL_ERROR, this.busyText()), this.busyHeaders()))) return method;
		this.dispatch(apps.rpc, req, res, body);
		return method;
	}

	/** An HTTP+JSON call, at `path` below the agent's URL; returns what the log names it by. */
	async restCall(apps: AgentApps, req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<string> {
		let body: unknown = undefined;
		if (req.method !== "GET" && req.method !== "HEAD" && req.method !== "DELETE") {
			const read = await this.body(req, res, true);
			if (!read) return path;
			if (read.text.trim() !== "") {
				try {
					body = JSON.parse(read.text);
				} catch (error) {
					sendJson(res, 400, toRestErrorBody(new RequestMalformedError(`the body is not JSON: ${(error as Error).message}`), 400));
					return path;
				}
			}
		}
		const version = req.headers[A2A_VERSION_HEADER.toLowerCase()];
		const legacy = version === undefined || version === "" || version === "0.3";
		if (restWaits(req.method ?? "", path, body, legacy) && !this.admitWaiting(res, () => sendJson(res, 503, toRestErrorBody(new Error(this.busyText()), 503), this.busyHeaders()))) return path;
		this.dispatch(apps.rest, req, res, body);
		return `${req.method ?? "?"} ${path}`;
	}

	private busyText(): string {
		return this.waiting.busyText();
	}

	private busyHeaders(): Record<string, string> {
		return { "Retry-After": String(RETRY_AFTER_SECONDS) };
	}

	/** Counts a call that waits, until its response closes; false (after `refuse`) past the bound. */
	private admitWaiting(res: http.ServerResponse, refuse: () => void): boolean {
		const release = this.waiting.enter();
		if (release === null) {
			refuse();
			return false;
		}
		res.once("close", release);
		return true;
	}

	/** Hands a checked call to the SDK's handlers, with the signal that its client went away. */
	private dispatch(app: (req: http.IncomingMessage, res: http.ServerResponse) => void, req: http.IncomingMessage, res: http.ServerResponse, body: unknown): void {
		const abort = new AbortController();
		this.inFlight.add(abort);
		res.on("close", () => {
			abort.abort(CALL_ENDED);
			this.inFlight.delete(abort);
		});
		callSignals.set(req.headers, abort.signal);
		(req as http.IncomingMessage & { body?: unknown }).body = body;
		app(req, res);
	}

	/** Ends every call handed on (streams and waits), as the server stops. */
	endAll(): void {
		for (const abort of this.inFlight) abort.abort(CALL_ENDED);
	}
}
