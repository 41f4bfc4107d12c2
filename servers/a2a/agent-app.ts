import type { IncomingMessage, ServerResponse } from "node:http";
import express from "express";
import { A2A_VERSION_HEADER, AgentCard } from "@a2a-js/sdk";
import { defaultServerCallContextBuilder } from "@a2a-js/sdk/server";
import type { ServerCallContextBuilder } from "@a2a-js/sdk/server";
import { UserBuilder, agentCardHandler, jsonRpcHandler, restHandler } from "@a2a-js/sdk/server/express";
import { AGENT_CARD_PATH } from "@a2a-js/sdk";
import { sendJson } from "./http-io";
import { REQUEST_SIGNAL } from "./note-executor";
import { CALLER_TRACE } from "./caller-trace";
import type { GroupRequestHandler } from "./request-handler";

// One served group as the SDK serves an agent (contract v3, section 8): its own express handlers for
// JSON-RPC (POST to the agent's URL) and HTTP+JSON (the binding's paths below the same URL:
// `/message:send`, `/tasks/{id}`..., and v0.3's under `/v1/`), each with the SDK's v0.3 layer on, over
// the group's request handler, so a v0.3 and a v1.0 client reach the same vault tasks. Each is its
// own express app: the HTTP+JSON handler marks every answer passing through it as its own. The card: a v1.0 request (A2A-Version: 1.0) gets the specification's JSON (AgentCard.toJSON:
// the SDK's own card handler writes its internal one-of objects as they are); a request without the
// header, or with 0.3, gets the SDK's v0.3 card. The HTTP server in front has checked the host, the
// token, the size and the JSON of the body, and counted the call; it hands the app a request whose
// url is the path below the agent.

/** The signal that a call's client went away, by the call's headers object (the SDK hands a context builder only the headers). */
export const callSignals = new WeakMap<object, AbortSignal>();

const contextBuilder: ServerCallContextBuilder = (options) => {
	const context = defaultServerCallContextBuilder(options);
	const signal = callSignals.get(options.headers);
	if (signal) context.state.set(REQUEST_SIGNAL, signal);
	const header = (name: string) => {
		const value = (options.headers as Record<string, string | string[] | undefined>)[name];
		return Array.isArray(value) ? value.join(",") : value;
	};
	const traceparent = header("traceparent");
	if (traceparent !== undefined) context.state.set(CALLER_TRACE, { traceparent, tracestate: header("tracestate") });
	return context;
};

const CARD = `/${AGENT_CARD_PATH}`;

export type AgentApp = (req: IncomingMessage, res: ServerResponse) => void;

export interface AgentApps {
	/** GET of the card (its path). */
	card: AgentApp;
	/** POST of a JSON-RPC call to the agent's URL. */
	rpc: AgentApp;
	/** Everything else below the agent's URL: the HTTP+JSON binding. */
	rest: AgentApp;
}

const newApp = () => {
	const app = express();
	app.disable("x-powered-by");
	return app;
};
const asHandler = (app: express.Express): AgentApp => (req, res) => app(req as express.Request, res as express.Response);

/** `card` gives the group's card for a request (its URLs follow the address the client reached). */
export function agentApps(handler: GroupRequestHandler, card: (req: IncomingMessage) => AgentCard): AgentApps {
	const legacyCompat = { enabled: true };
	const cardApp = newApp();
	// Mounted with use(): the SDK's card router below it answers its own root.
	cardApp.use(CARD, (req, res, next) => {
		const version = req.header(A2A_VERSION_HEADER);
		if (version === undefined || version === "" || version === "0.3") {
			agentCardHandler({ agentCardProvider: () => Promise.resolve(card(req)), legacyCompat, cache: { maxAge: 0 } })(req, res, next);
			return;
		}
		sendJson(res, 200, AgentCard.toJSON(card(req)), { Vary: A2A_VERSION_HEADER });
	});
	const rest = newApp();
	rest.use(restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat, contextBuilder }));
	rest.use((req, res) => sendJson(res, 404, { error: { code: 404, status: "NOT_FOUND", message: `no A2A operation at ${req.method} ${req.path}: JSON-RPC is POST to the agent's URL; HTTP+JSON is /message:send, /message:stream, /tasks, /tasks/{id}, /tasks/{id}:cancel, /tasks/{id}:subscribe (v0.3: under /v1/)` } }));
	const rpc = newApp();
	rpc.use(jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat, contextBuilder }));
	return { card: asHandler(cardApp), rpc: asHandler(rpc), rest: asHandler(rest) };
}
