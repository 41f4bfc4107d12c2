import { describe, expect, it } from "vitest";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import { MAX_QUEUED_SPANS, OtlpSink } from "../../node/telemetry/otlp-sink";
import { otlpHeaders } from "../../node/telemetry/otlp-http-exporter";
import type { SpanRecord } from "../../src/core/message-span";

// The CLI's span sink never stands in routing's way: recording only queues, the queue is bounded,
// what it drops is counted and said once, and a command that ends does not wait for the collector.

const config = { endpoint: "http://127.0.0.1:9/v1/traces", protocol: "http/json" as const, serviceName: "t", includeText: false };

function span(i: number): SpanRecord {
	return { name: "route g", traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: (i + 1).toString(16).padStart(16, "0"), links: [], startMs: 1_000, endMs: 2_000, attributes: { "messaging.system": "a2a-relay" }, events: [] };
}

/** An exporter whose collector never answers; it records the batches it was given. */
function silentExporter(batches: ReadableSpan[][]): SpanExporter {
	return { export: (spans) => void batches.push(spans), shutdown: async () => undefined, forceFlush: async () => undefined };
}

describe("the OTLP span sink", () => {
	it("queues at most a bounded number of spans behind a collector that does not answer, counts the rest and says so once", async () => {
		const batches: ReadableSpan[][] = [];
		const warnings: string[] = [];
		const sink = await OtlpSink.load(config, { warn: (l) => warnings.push(l), version: "1", exporter: silentExporter(batches) }, {});
		for (let i = 0; i < 3000; i++) sink.record(span(i));
		// One batch went out (and hangs); the queue holds its maximum; the rest was dropped.
		expect(batches).toHaveLength(1);
		expect(batches[0]).toHaveLength(512);
		expect(sink.droppedSpans).toBe(3000 - 512 - MAX_QUEUED_SPANS);
		expect(warnings).toHaveLength(1);
		await sink.close(50);
		expect(sink.droppedSpans).toBe(3000);
		expect(warnings).toHaveLength(2);
		expect(warnings[1]).toBe("telemetry: 3000 span(s) could not be sent to http://127.0.0.1:9/v1/traces");
	});

	it("hands the SDK the relay's own ids, times, events and status", async () => {
		const batches: ReadableSpan[][] = [];
		const exporter: SpanExporter = { export: (spans, done) => { batches.push(spans); done({ code: 0 }); }, shutdown: async () => undefined, forceFlush: async () => undefined };
		const sink = await OtlpSink.load(config, { warn: () => undefined, version: "1", exporter }, {});
		sink.record({ ...span(1), parentSpanId: "00f067aa0ba902b7", events: [{ name: "retry", timeMs: 1_500, attributes: { "a2a_relay.attempt": 2 } }], error: { code: "TIMEOUT" } });
		await sink.close(1000);
		const [s] = batches[0];
		expect(s.spanContext().traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
		expect(s.spanContext().spanId).toBe("0000000000000002");
		expect(s.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
		expect(s.startTime).toEqual([1, 0]);
		expect(s.endTime).toEqual([2, 0]);
		expect(s.events.map((e) => e.name)).toEqual(["retry"]);
		expect(s.status).toEqual({ code: 2, message: "TIMEOUT" });
		expect(sink.droppedSpans).toBe(0);
	});

	it("reads OTEL_EXPORTER_OTLP_HEADERS as the specification writes them", () => {
		expect(otlpHeaders("api-key=abc%20def, x-tenant = t1,bad,=x,sp ace=1")).toEqual({ "api-key": "abc def", "x-tenant": "t1" });
		expect(otlpHeaders(undefined)).toEqual({});
	});
});
