import * as http from "node:http";
import type { AddressInfo } from "node:net";

// An OTLP/HTTP trace receiver on loopback, for the tests of what the CLI exports: it takes the JSON
// encoding (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), keeps every span it was sent, and answers as a
// collector does. A protobuf body is kept as a count of requests only.

export interface ReceivedSpan {
	name: string;
	traceId: string;
	spanId: string;
	parentSpanId?: string;
	kind: number;
	status: { code?: number; message?: string };
	attributes: Record<string, string | number | boolean>;
	events: { name: string; attributes: Record<string, string | number | boolean> }[];
	links: { traceId: string; spanId: string }[];
	startTimeUnixNano: string;
	endTimeUnixNano: string;
	serviceName?: string;
}

interface OtlpValue {
	stringValue?: string;
	intValue?: string | number;
	boolValue?: boolean;
	doubleValue?: number;
}

function attributes(list: { key: string; value: OtlpValue }[] | undefined): Record<string, string | number | boolean> {
	const out: Record<string, string | number | boolean> = {};
	for (const { key, value } of list ?? []) out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.boolValue ?? value.doubleValue ?? "";
	return out;
}

export interface OtlpReceiver {
	/** The endpoint to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
	endpoint: string;
	spans: ReceivedSpan[];
	/** Requests received, by content type. */
	requests: { path: string; contentType: string; headers: http.IncomingHttpHeaders }[];
	close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
	const spans: ReceivedSpan[] = [];
	const requests: OtlpReceiver["requests"] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", () => {
			const contentType = String(req.headers["content-type"] ?? "");
			requests.push({ path: req.url ?? "", contentType, headers: req.headers });
			if (contentType.includes("json")) {
				const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { resourceSpans: { resource?: { attributes?: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: (Omit<ReceivedSpan, "attributes" | "events"> & { attributes?: { key: string; value: OtlpValue }[]; events?: { name: string; attributes?: { key: string; value: OtlpValue }[] }[]; links?: { traceId: string; spanId: string }[] })[] }[] }[] };
				for (const rs of body.resourceSpans) {
					const serviceName = attributes(rs.resource?.attributes)["service.name"] as string | undefined;
					for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ ...s, serviceName, links: s.links ?? [], attributes: attributes(s.attributes), events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attributes(e.attributes) })) });
				}
			}
			res.writeHead(200, { "content-type": contentType.includes("json") ? "application/json" : "application/x-protobuf" });
			res.end(contentType.includes("json") ? "{}" : "");
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		endpoint: `http://127.0.0.1:${port}`,
		spans,
		requests,
		close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
	};
}
