/** Node-only: the fake's requestUrl over node:http(s), without CORS, like Obsidian's own. */
import * as http from "node:http";
import * as https from "node:https";
import type { RequestUrlTransport } from "./render";

export const nodeRequestTransport: RequestUrlTransport = (url, init) =>
	new Promise((resolve, reject) => {
		const target = new URL(url);
		const client = target.protocol === "https:" ? https : http;
		const body = init.body === undefined ? undefined : typeof init.body === "string" ? Buffer.from(init.body, "utf8") : Buffer.from(init.body);
		const headers = { ...init.headers, ...(body ? { "content-length": String(body.length) } : {}) };
		const req = client.request(target, { method: init.method, headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on("data", (c: Buffer) => chunks.push(c));
			res.on("end", () => {
				const all = Buffer.concat(chunks);
				const out: Record<string, string> = {};
				for (const [key, value] of Object.entries(res.headers)) if (value !== undefined) out[key] = Array.isArray(value) ? value.join(", ") : value;
				resolve({ status: res.statusCode ?? 0, headers: out, body: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer });
			});
			res.on("error", reject);
		});
		req.on("error", reject);
		req.end(body);
	});
