import manifest from "../../manifest.json";
import { creationSpan } from "../../src/core/message-span";
import type { WrittenMessage } from "../../src/core/message-span";
import { SpanRecorder } from "../../src/router/span-recorder";
import { telemetryConfig } from "./otel-config";
import { OtlpSink } from "./otlp-sink";

// What `a2a route`, `a2a serve` and `a2a mcp` start when the environment asks for OpenTelemetry:
// a recorder of the router's decisions over a sink that exports them. Nothing when it does not.

export interface Telemetry {
	recorder: SpanRecorder;
	sink: OtlpSink;
	/** Records the creation span of a message this command wrote (a2a serve, a2a mcp). */
	created(fields: WrittenMessage, atMs: number): void;
}

/** Telemetry as the environment asks for it, or null (a problem with what it asks for is said on stderr). */
export async function startTelemetry(env: NodeJS.ProcessEnv, warn: (line: string) => void): Promise<Telemetry | null> {
	const { config, problem } = telemetryConfig(env);
	if (problem) warn(`telemetry: ${problem}`);
	if (!config) return null;
	const sink = await OtlpSink.load(config, { warn, version: manifest.version }, env);
	return {
		sink,
		recorder: new SpanRecorder(sink, { includeText: config.includeText }),
		created(fields, atMs) {
			const span = creationSpan(fields, atMs);
			if (span) sink.record(span);
		},
	};
}
