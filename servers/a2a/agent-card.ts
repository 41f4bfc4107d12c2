import { A2A_PROTOCOL_VERSION } from "@a2a-js/sdk";
import type { AgentCard, AgentSkill } from "@a2a-js/sdk";
import { duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";
import { REQUEST_TYPES } from "../../src/core/protocol";
import type { RequestType } from "../../src/core/protocol";
import type { GroupEntry } from "../../src/core/registry";
import { ROUTING_EXTENSION, ROUTING_EXTENSION_DESCRIPTION } from "./mapping/routing-extension";
import manifest from "../../manifest.json";

// The agent card of a served group (contract v3, section 8): its name and description from the
// registry, a JSON-RPC interface and an HTTP+JSON one at the agent's URL (the binding's paths follow
// it: `/message:send`...), each in protocol 1.0 and in 0.3 (the SDK's v0.3 layer answers only interfaces the card lists), streaming, the
// relay's routing extension (not required: any A2A client may call), one skill per request type,
// and the bearer token in the security schemes when the server asks for one. Served with
// AgentCard.toJSON, which writes the specification's JSON (one-of fields by their names).

export const BEARER_SCHEME = "bearer";

/** The version of the relay shown in the cards: the release's, from its manifest. */
export const RELAY_VERSION = manifest.version;

/**
 * What a message may carry, as the gateway really takes it: text parts (the note's question or task),
 * data parts (kept as JSON in its ## Context) and url parts of any media type (kept as references in
 * its ## Artifacts, listed as text/uri-list). File bytes (raw parts) are refused: a note cannot hold them.
 */
export const INPUT_MODES = ["text/plain", "application/json", "text/uri-list"];

const SKILL_TEXT: Record<RequestType, { name: string; description: (group: string) => string }> = {
	query: { name: "Query", description: (g) => `Ask ${g} a question. The message's text becomes the request note's ## Question; the answer comes back as a text artifact.` },
	task: { name: "Task", description: (g) => `Give ${g} a task (metadata request_type: task). The text becomes the note's ## Task.` },
	artifact: { name: "Artifact", description: (g) => `Ask ${g} for an artifact (metadata request_type: artifact); files come back as vault paths in the answer's parts.` },
};

function skill(group: string, type: RequestType): AgentSkill {
	return {
		id: type,
		name: SKILL_TEXT[type].name,
		description: SKILL_TEXT[type].description(group),
		tags: [group, type],
		examples: [],
		inputModes: [...INPUT_MODES],
		outputModes: ["text/plain"],
		securityRequirements: [],
	};
}

/** `base` is the server's address ending with `/` (http://127.0.0.1:41241/). */
export function groupUrl(base: string, group: string): string {
	return `${base}groups/${encodeURIComponent(group)}/`;
}

/** `url` is the agent's URL ending with `/`: `groupUrl(base, id)`, or the server's base for `serve --group`. */
export function agentCard(group: GroupEntry, url: string, withToken: boolean, grpcUrl?: string): AgentCard {
	const v1 = [
		{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION },
		// Without the final slash: a client appends `/message:send` to it.
		{ url: url.replace(/\/$/, ""), protocolBinding: "HTTP+JSON", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION },
	];
	const card: AgentCard = {
		name: group.id,
		description: group.description ?? `The group ${group.id} of an A2A Relay vault: its agents read requests from their inbox and answer through the relay.`,
		version: RELAY_VERSION,
		// gRPC (`serve --group G --grpc-port N`) in v1.0 only: the SDK's v0.3 gRPC service is another one.
		supportedInterfaces: [...duplicateInterfacesForLegacy(v1, ["JSONRPC", "HTTP+JSON"]), ...(grpcUrl === undefined ? [] : [{ url: grpcUrl, protocolBinding: "GRPC", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION }])],
		provider: undefined,
		capabilities: {
			streaming: true,
			pushNotifications: false,
			extendedAgentCard: false,
			extensions: [{ uri: ROUTING_EXTENSION, description: ROUTING_EXTENSION_DESCRIPTION, required: false, params: undefined }],
		},
		securitySchemes: {},
		securityRequirements: [],
		defaultInputModes: [...INPUT_MODES],
		defaultOutputModes: ["text/plain"],
		skills: REQUEST_TYPES.map((type) => skill(group.id, type)),
		signatures: [],
	};
	if (withToken) {
		card.securitySchemes[BEARER_SCHEME] = { scheme: { $case: "httpAuthSecurityScheme", value: { scheme: "Bearer", bearerFormat: "", description: "the token of a2a serve --token-file" } } };
		card.securityRequirements = [{ schemes: { [BEARER_SCHEME]: { list: [] } } }];
	}
	return card;
}
