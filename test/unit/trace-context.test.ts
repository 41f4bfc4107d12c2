import { describe, expect, it } from "vitest";
import { cleanTracestate, formatTraceparent, messageSpanContext, parseTraceparent, spanIdOf, traceIdOf, uuidOfTraceId } from "../../src/core/trace-context";

// W3C trace context as the relay reads and writes it (protocol section 9): the examples are the
// specification's own (https://www.w3.org/TR/trace-context/#examples-of-http-traceparent-headers).

describe("trace context", () => {
	it("reads a valid traceparent and refuses what the specification calls invalid", () => {
		expect(parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toEqual({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", sampled: true });
		expect(parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")?.sampled).toBe(false);
		for (const bad of [
			"00-00000000000000000000000000000000-00f067aa0ba902b7-01",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
			"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
			"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
			"00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
			"",
			42,
		]) expect(parseTraceparent(bad), String(bad)).toBeNull();
		// A later version may add fields, which a version 00 reader ignores.
		expect(parseTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later")?.spanId).toBe("00f067aa0ba902b7");
	});

	it("writes what it reads", () => {
		const header = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
		expect(formatTraceparent(parseTraceparent(header)!)).toBe(header);
		expect(() => formatTraceparent({ traceId: "xyz", spanId: "00f067aa0ba902b7", sampled: true })).toThrow();
	});

	it("takes a conversation's UUID as its trace id, and its message ids as span ids the same everywhere", () => {
		expect(traceIdOf("4BF92F35-77B3-4DA6-A3CE-929D0E0E4736")).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
		expect(uuidOfTraceId("4bf92f3577b34da6a3ce929d0e0e4736")).toBe("4bf92f35-77b3-4da6-a3ce-929d0e0e4736");
		// An id that is no UUID (or all zeros) still gives a valid, stable trace id.
		expect(traceIdOf("not-a-uuid")).toMatch(/^[0-9a-f]{32}$/);
		expect(traceIdOf("00000000-0000-0000-0000-000000000000")).not.toBe("0".repeat(32));
		expect(spanIdOf("m-1")).toMatch(/^[0-9a-f]{16}$/);
		expect(spanIdOf("m-1")).toBe(spanIdOf("m-1"));
		expect(spanIdOf("m-1")).not.toBe(spanIdOf("m-2"));
		expect(spanIdOf("m-1", "duplicate")).not.toBe(spanIdOf("m-1"));
		expect(messageSpanContext("4bf92f35-77b3-4da6-a3ce-929d0e0e4736", "m-1")).toEqual({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: spanIdOf("m-1"), sampled: true });
	});

	it("keeps a tracestate only when it is one", () => {
		expect(cleanTracestate("rojo=00f067aa0ba902b7, congo=t61rcWkgMzE")).toBe("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE");
		expect(cleanTracestate("vendor@tenant=x")).toBe("vendor@tenant=x");
		expect(cleanTracestate("no-equals")).toBeNull();
		expect(cleanTracestate("a=\u0007")).toBeNull();
		expect(cleanTracestate(`${"a=b,".repeat(33)}a=b`)).toBeNull();
		expect(cleanTracestate("x".repeat(600))).toBeNull();
	});
});
