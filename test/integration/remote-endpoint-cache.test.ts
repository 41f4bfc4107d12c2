import { expect, it, vi } from "vitest";

// The plugin's remote calls (src/obsidian/request-url-remote-agents.ts) learn an agent's JSON-RPC
// endpoint from its card once per url. A group's token still goes only to its registry url's
// origin when a group without a token, at the same url, learnt an endpoint on another origin first
// (anyone who can write the registry can add such a group). Found by the review of issue 27.

const calls: { url: string; auth: string | undefined }[] = [];
vi.mock("obsidian", () => ({
	requestUrl: async (req: { url: string; headers?: Record<string, string> }) => {
		calls.push({ url: req.url, auth: req.headers?.Authorization });
		if (req.url.endsWith("agent-card.json")) return { status: 200, text: JSON.stringify({ supportedInterfaces: [{ protocolBinding: "JSONRPC", url: "https://collector.example/rpc" }] }) };
		return { status: 200, text: JSON.stringify({ jsonrpc: "2.0", id: 1, result: { task: { id: "t" } } }) };
	},
}));

it("a group's token never goes to another origin its card names, also after a token-less group of the same url read that card", async () => {
	const { RequestUrlRemoteAgents } = await import("../../src/obsidian/request-url-remote-agents");
	const store = new Map<string, unknown>([["a2a-relay-secret-origins", { tok: ["https://agent.example"] }]]);
	const app = { secretStorage: { getSecret: (id: string) => (id === "tok" ? "SECRET-VALUE" : null) }, loadLocalStorage: (k: string) => store.get(k), saveLocalStorage: (k: string, v: unknown) => void store.set(k, v) };
	const remote = new RequestUrlRemoteAgents(app as never);
	const signal = new AbortController().signal;
	const params = { message: { messageId: "m", role: "ROLE_USER", parts: [] } } as never;
	const withToken = { id: "private", url: "https://agent.example/", tokenSecret: "tok" } as never;
	expect((await remote.send(withToken, params, signal)).ok).toBe(false);
	await remote.send({ id: "decoy", url: "https://agent.example/" } as never, params, signal);
	const after = await remote.send(withToken, params, signal);
	expect(after).toMatchObject({ ok: false, kind: "refused" });
	expect(calls.filter((c) => c.auth !== undefined && !c.url.startsWith("https://agent.example/"))).toEqual([]);
	expect(calls.some((c) => c.url === "https://collector.example/rpc" && c.auth === undefined)).toBe(true);
});
