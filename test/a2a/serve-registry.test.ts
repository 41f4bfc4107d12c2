import { describe, expect, it } from "vitest";
import manifest from "../../manifest.json";
import { A_GROUP, GATEWAY, until, useHarness } from "./harness";

// Which groups `a2a serve` serves comes from the registry: local groups, not the gateway, not
// those marked `serve: false`; an edit of the registry takes effect without a restart; without a
// gateway group it does not start.

const h = useHarness();

interface Listing {
	gateway_group: string;
	groups: { id: string; url: string; card: string }[];
}

const listing = async (url: string) => (await (await fetch(url)).json()) as Listing;

describe("a2a serve and the registry", () => {
	it("serves the local groups but the gateway and those with serve: false, and follows an edit of the registry", async () => {
		const v = await h.vault((r) => r.replace("  30-devops-group:\n", "  30-devops-group:\n    serve: false\n").replace("  40-security-group:\n", "  remote-group:\n    url: https://agents.example.org/a2a/\n  40-security-group:\n"));
		const served = await h.serve(v.dir);
		const first = await listing(served.url);
		expect(first.gateway_group).toBe(GATEWAY);
		expect(first.groups.map((g) => g.id)).toEqual([A_GROUP, "20-frontend-group", "40-security-group"]);
		expect(first.groups[0]).toEqual({ id: A_GROUP, description: "Designs the database and the API", url: served.groupUrl(A_GROUP), card: `${served.groupUrl(A_GROUP)}.well-known/agent-card.json` });
		const card = (await (await fetch(first.groups[0].card, { headers: { "A2A-Version": "1.0" } })).json()) as Record<string, unknown>;
		expect(card).toMatchObject({ name: A_GROUP, description: "Designs the database and the API", version: manifest.version, supportedInterfaces: [
				{ url: served.groupUrl(A_GROUP), protocolBinding: "JSONRPC", protocolVersion: "1.0" },
				{ url: served.groupUrl(A_GROUP).replace(/\/$/, ""), protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
				{ url: served.groupUrl(A_GROUP), protocolBinding: "JSONRPC", protocolVersion: "0.3" },
				{ url: served.groupUrl(A_GROUP).replace(/\/$/, ""), protocolBinding: "HTTP+JSON", protocolVersion: "0.3" },
			],
		});
		expect(card.capabilities).toMatchObject({ streaming: true, extensions: [{ uri: "urn:a2a-relay:ext:routing:v1" }] });
		expect((card.skills as { id: string }[]).map((s) => s.id)).toEqual(["query", "task", "artifact"]);
		expect(JSON.stringify(card)).not.toContain("$case");
		expect((await fetch(`${served.groupUrl("30-devops-group")}.well-known/agent-card.json`)).status).toBe(404);

		await v.write("A2A/registry.yaml", (await v.read("A2A/registry.yaml")).replace("    serve: false\n", ""));
		const after = await until("the registry edit to take effect", async () => {
			const now = await listing(served.url);
			return now.groups.length === 4 ? now : null;
		});
		expect(after.groups.map((g) => g.id)).toEqual([A_GROUP, "20-frontend-group", "30-devops-group", "40-security-group"]);
		expect((await fetch(`${served.groupUrl("30-devops-group")}.well-known/agent-card.json`)).status).toBe(200);
	});

	it("does not start without a gateway group in the registry, and says how to add one", async () => {
		const v = await h.vault((r) => r.replace(/ {2}a2a-gateway:\n(?: {4}.*\n)*/, ""));
		const result = await h.run(["serve", "--vault", v.dir, "--port", "0"]);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('the registry has no gateway group "a2a-gateway"');
	});

	it("--group names a group it can serve, or it does not start and says why; --grpc-port needs --group", async () => {
		const v = await h.vault((r) => r.replace("  30-devops-group:\n", "  30-devops-group:\n    serve: false\n"));
		const refusals = [];
		for (const [group, why] of [["nobody", "the registry has no such group"], [GATEWAY, "it is the gateway group"], ["30-devops-group", "serve: false"]]) {
			const result = await h.run(["serve", "--vault", v.dir, "--port", "0", "--group", group]);
			refusals.push([result.code, result.stderr.includes(`--group ${group} cannot be served: `) && result.stderr.includes(why)]);
		}
		const grpcAlone = await h.run(["serve", "--vault", v.dir, "--port", "0", "--grpc-port", "0"]);
		expect([...refusals, [grpcAlone.code, grpcAlone.stderr.includes("--grpc-port serves one group")]]).toEqual([
			[1, true],
			[1, true],
			[1, true],
			[1, true],
		]);
	});
});
