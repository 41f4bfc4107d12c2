import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import type { TelemetryConfig } from "./otel-config";

// Posts spans to an OTLP/HTTP endpoint, encoded by OpenTelemetry's own serializers
// (@opentelemetry/otlp-transformer, JSON or protobuf). One try per batch, bounded by the OTLP
// timeout, never through a redirect, and abortable: a command that ends does not wait for a
// collector that does not answer (the SDK's exporter retries for up to ten seconds, which kept a
// one-shot `a2a route` alive that long). What fails is reported to the caller, which counts it.

type Serializer = { serializeRequest(spans: ReadableSpan[]): Uint8Array | undefined };

/** `OTEL_EXPORTER_OTLP_HEADERS`: `key=value` pairs separated by commas, values URL-encoded. */
export function otlpHeaders(text: string | undefined): Record<string, string> {
	const out: Record<string, string> = {};
	for (const pair of (text ?? "").split(",")) {
		const at = pair.indexOf("=");
		if (at <= 0) continue;
		const key = pair.slice(0, at).trim();
		let value = pair.slice(at + 1).trim();
		try {
			value = decodeURIComponent(value);
		} catch {
			continue;
		}
		if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) out[key] = value;
	}
	return out;
}

/** The export timeout in milliseconds (`OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`, `OTEL_EXPORTER_OTLP_TIMEOUT`; default 10 s). */
export function otlpTimeout(env: NodeJS.ProcessEnv): number {
	const raw = Number(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT);
	return Number.isFinite(raw) && raw > 0 ? raw : 10_000;
}

export class OtlpHttpExporter implements SpanExporter {
	private readonly inFlight = new Set<AbortController>();
	private readonly headers: Record<string, string>;

	constructor(
		private readonly config: TelemetryConfig,
		private readonly serializer: Serializer,
		env: NodeJS.ProcessEnv,
		private readonly timeoutMs = otlpTimeout(env),
	) {
		this.headers = {
			...otlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
			...otlpHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
			"content-type": config.protocol === "http/json" ? "application/json" : "application/x-protobuf",
		};
	}

	export(spans: ReadableSpan[], done: (result: { code: number; error?: Error }) => void): void {
		const body = this.serializer.serializeRequest(spans);
		if (!body) return done({ code: 1, error: new Error("the spans could not be encoded") });
		const abort = new AbortController();
		this.inFlight.add(abort);
		const timer = setTimeout(() => abort.abort(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
		fetch(this.config.endpoint, { method: "POST", headers: this.headers, body: new Blob([new Uint8Array(body)]), redirect: "manual", signal: abort.signal })
			.then(async (response) => {
				await response.arrayBuffer().catch(() => undefined);
				done(response.ok ? { code: 0 } : { code: 1, error: new Error(`the collector answered HTTP ${response.status}`) });
			})
			.catch((error: unknown) => {
				const cause = (error as { cause?: { message?: string } }).cause?.message;
				done({ code: 1, error: new Error(abort.signal.aborted ? String((abort.signal.reason as Error | undefined)?.message ?? "aborted") : (cause ?? (error as Error).message)) });
			})
			.finally(() => {
				clearTimeout(timer);
				this.inFlight.delete(abort);
			});
	}

	/** Gives up every export under way (their spans count as lost). */
	async shutdown(): Promise<void> {
		for (const abort of this.inFlight) abort.abort(new Error("the command ended"));
	}

	async forceFlush(): Promise<void> {}
}
