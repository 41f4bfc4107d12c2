import type { AgentCard } from "@a2a-js/sdk";

/** The card of a plain test agent: JSON-RPC at `url`, text in and out, no streaming, no skills. */
export function plainAgentCard(name: string, description: string, url: string): AgentCard {
	return {
		name,
		description,
		version: "0.0.1",
		supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" }],
		provider: undefined,
		capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false, extensions: [] },
		securitySchemes: {},
		securityRequirements: [],
		defaultInputModes: ["text/plain"],
		defaultOutputModes: ["text/plain"],
		skills: [],
		signatures: [],
	};
}
