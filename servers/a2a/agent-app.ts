import type { IncomingMessage, ServerResponse } from "node:http";
import express from "express";
import { A2A_VERSION_HEADER, AgentCard } from "@a2a-js/sdk";
import { defaultServerCallContextBuilder } from "@a2a-js/sdk/server";
import type { ServerCallContextBuilder } from "@a2a-js/sdk/server";
import { UserBuilder, agentCardHandler, jsonRpcHandler, restHandler } from "@a2a-js/sdk/server/express";
import { AGENT_CARD_PATH } from "@a2a-js/sdk";
import { REST_PATH } from "./agent-card";
import { sendJson } from "./http-io";
import { REQUEST_SIGNAL } from "./note-executor";
import type { GroupRequestHandler } from "./request-handler";

// One served group as the SDK serves an agent (contract v3, section 8): its own express handlers for
// JSON-RPC (POST to the agent's URL) and HTTP+JSON (below `<url>rest`), each with the SDK's v0.3
// layer on, over the group's request handler, so a v0.3 and a v1.0 client reach the same vault
// tasks. The card: a v1.0 request (A2A-Version: 1.0) gets the specification's JSON (AgentCard.toJSON:
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
	return context;
};

const CARD = `/${AGENT_CARD_PATH}`;

export type AgentApp = (req: IncomingMessage, res: ServerResponse) => void;

/** `card` gives the group's card for a request (its URLs follow the address the client reached). */
export function agentApp(handler: GroupRequestHandler, card: (req: IncomingMessage) => AgentCard): AgentApp {
	const legacyCompat = { enabled: true };
	const app = express();
	app.disable("x-powered-by");
	// Mounted with use(): the SDK's card router below it answers its own root.
	app.use(CARD, (req, res, next) => {
		const version = req.header(A2A_VERSION_HEADER);
		if (version === undefined || version === "" || version === "0.3") {
			agentCardHandler({ agentCardProvider: () => Promise.resolve(card(req)), legacyCompat, cache: { maxAge: 0 } })(req, res, next);
			return;
		}
		sendJson(res, 200, AgentCard.toJSON(card(req)), { Vary: A2A_VERSION_HEADER });
	});
	app.use(`/${REST_PATH}`, restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat, contextBuilder }));
	app.use("/", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat, contextBuilder }));
	return (req, res) => app(req as express.Request, res as express.Response);
}
