import * as http from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { requestUrl } from "obsidian";
import { createTempHost } from "../../test-support/fake-obsidian/node-host";
import type { TempHost } from "../../test-support/fake-obsidian/node-host";

// The fake's requestUrl behaves like Obsidian's on a Node host: it reaches any http address without
// CORS (a server that sends no CORS header is read), gives back status, headers, text and json, and
// throws on a status >= 400 unless `throw: false`. The plugin's remote-agent adapter relies on it.

let server: http.Server;
let base = "";
let host: TempHost;
const seen: { method?: string; auth?: string; body: string }[] = [];

beforeEach(async () => {
	server = http.createServer((req, res) => {
		let body = "";
		req.on("data", (c: Buffer) => (body += c.toString("utf8")));
		req.on("end", () => {
			seen.push({ method: req.method, auth: req.headers.authorization, body });
			if (req.url === "/missing") {
				res.writeHead(404, { "content-type": "text/plain" });
				res.end("no such thing");
				return;
			}
			res.writeHead(200, { "content-type": "application/json", "x-answer": "yes" });
			res.end(JSON.stringify({ echoed: body }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
	host = await createTempHost();
});
afterEach(async () => {
	await host.cleanup();
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
	seen.length = 0;
});

describe("requestUrl in the fake host", () => {
	it("posts to a server without CORS headers and reads its answer", async () => {
		const res = await requestUrl({ url: `${base}/rpc`, method: "POST", contentType: "application/json", body: '{"a":1}', headers: { Authorization: "Bearer t" } });
		expect(res.status).toBe(200);
		expect(res.headers["x-answer"]).toBe("yes");
		expect(res.json).toEqual({ echoed: '{"a":1}' });
		expect(seen).toEqual([{ method: "POST", auth: "Bearer t", body: '{"a":1}' }]);
	});

	it("throws on a status >= 400, and gives it back with throw: false", async () => {
		await expect(requestUrl(`${base}/missing`)).rejects.toThrow("status 404");
		const res = await requestUrl({ url: `${base}/missing`, throw: false });
		expect(res.status).toBe(404);
		expect(res.text).toBe("no such thing");
	});
});
