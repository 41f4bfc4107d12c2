import type { SpanRecord } from "../../src/core/message-span";
import type { SpanSink } from "../../src/router/span-recorder";
import type { TelemetryConfig } from "./otel-config";
import { OtlpHttpExporter } from "./otlp-http-exporter";

// The CLI's span sink: the official OpenTelemetry SDK (a TracerProvider whose ids are the relay's
// own, so every device names a hop alike) and its OTLP/HTTP exporter. Loaded only when telemetry is
// asked for. Never in routing's way: `record` only queues (a bounded queue; what does not fit is
// dropped and counted), one batch is exported at a time in the background, and the problem of a
// collector that cannot be reached is said once.

type Sdk = typeof import("@opentelemetry/sdk-trace");
type Api = typeof import("@opentelemetry/api");
type ReadableSpan = import("@opentelemetry/sdk-trace").ReadableSpan;
type SpanExporter = import("@opentelemetry/sdk-trace").SpanExporter;

/** Spans waiting for export at most; past it a span is dropped (and counted). */
export const MAX_QUEUED_SPANS = 2048;
const BATCH = 512;
const DELAY_MS = 1000;

export interface OtlpSinkOptions {
	/** Where the one warning about spans that could not be sent goes (stderr). */
	warn: (line: string) => void;
	version: string;
	/** A stand-in for the OTLP/HTTP exporter (tests of the queue). */
	exporter?: SpanExporter;
}

export class OtlpSink implements SpanSink {
	private readonly queue: ReadableSpan[] = [];
	private exporting: Promise<void> | null = null;
	/** Spans of the export under way. */
	private sending = 0;
	private closed = false;
	private timer: NodeJS.Timeout | null = null;
	private dropped = 0;
	private warned = false;
	private nextIds: { traceId: string; spanId: string } = { traceId: "", spanId: "" };
	private readonly tracer: import("@opentelemetry/api").Tracer;

	private constructor(
		private readonly api: Api,
		sdk: Sdk,
		private readonly exporter: SpanExporter,
		private readonly config: TelemetryConfig,
		private readonly options: OtlpSinkOptions,
		resource: import("@opentelemetry/resources").Resource,
	) {
		const ids = this.nextIds;
		const queue: import("@opentelemetry/sdk-trace").SpanProcessor = {
			onStart: () => undefined,
			onEnd: (span) => this.enqueue(span),
			forceFlush: () => this.flush(),
			shutdown: () => this.flush(),
		};
		const provider = new sdk.TracerProvider({
			resource,
			sampler: new sdk.AlwaysOnSampler(),
			idGenerator: { generateTraceId: () => ids.traceId, generateSpanId: () => ids.spanId },
			spanProcessors: [queue],
		});
		this.tracer = provider.getTracer("a2a-relay", options.version);
	}

	/** Loads the SDK and its encoder (for the protocol the environment names). */
	static async load(config: TelemetryConfig, options: OtlpSinkOptions, env: NodeJS.ProcessEnv): Promise<OtlpSink> {
		const [api, sdk, resources, transformer] = await Promise.all([
			import("@opentelemetry/api"),
			import("@opentelemetry/sdk-trace"),
			import("@opentelemetry/resources"),
			import("@opentelemetry/otlp-transformer"),
		]);
		const serializer = config.protocol === "http/json" ? transformer.JsonTraceSerializer : transformer.ProtobufTraceSerializer;
		const exporter = options.exporter ?? new OtlpHttpExporter(config, serializer, env);
		const resource = resources.resourceFromAttributes({ "service.name": config.serviceName, "service.version": options.version });
		return new OtlpSink(api, sdk, exporter, config, options, resource);
	}

	record(record: SpanRecord): void {
		const { api } = this;
		this.nextIds.traceId = record.traceId;
		this.nextIds.spanId = record.spanId;
		const parent = record.parentSpanId
			? api.trace.setSpanContext(api.ROOT_CONTEXT, { traceId: record.traceId, spanId: record.parentSpanId, traceFlags: api.TraceFlags.SAMPLED, isRemote: true })
			: api.ROOT_CONTEXT;
		const span = this.tracer.startSpan(
			record.name,
			{
				kind: api.SpanKind.PRODUCER,
				startTime: new Date(record.startMs),
				attributes: record.attributes,
				links: record.links.map((l) => ({ context: { traceId: l.traceId, spanId: l.spanId, traceFlags: l.sampled ? 1 : 0, isRemote: true } })),
				root: record.parentSpanId === undefined,
			},
			parent,
		);
		for (const event of record.events) span.addEvent(event.name, event.attributes, new Date(event.timeMs));
		if (record.error) span.setStatus({ code: api.SpanStatusCode.ERROR, message: record.error.message ? `${record.error.code}: ${record.error.message}` : record.error.code });
		span.end(new Date(record.endMs));
	}

	/** How many spans could not be sent (the queue was full, or the collector refused or could not be reached). */
	get droppedSpans(): number {
		return this.dropped;
	}

	/**
	 * Sends what is queued, waiting at most `waitMs` for the collector; gives up what is still not
	 * sent then, and says once how many spans were lost.
	 */
	async close(waitMs = 2000): Promise<void> {
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
		const done = this.flush();
		let timeout: NodeJS.Timeout | undefined;
		await Promise.race([done, new Promise<void>((r) => (timeout = setTimeout(r, waitMs)))]);
		if (timeout) clearTimeout(timeout);
		this.closed = true;
		this.dropped += this.queue.length + this.sending;
		this.queue.length = 0;
		this.sending = 0;
		await this.exporter.shutdown().catch(() => undefined);
		if (this.dropped > 0) this.options.warn(`telemetry: ${this.dropped} span(s) could not be sent to ${this.config.endpoint}`);
	}

	private enqueue(span: ReadableSpan): void {
		if (this.queue.length >= MAX_QUEUED_SPANS) {
			this.lost(1, "the queue of spans to send is full");
			return;
		}
		this.queue.push(span);
		if (this.queue.length >= BATCH) this.kick();
		else if (!this.timer) {
			this.timer = setTimeout(() => {
				this.timer = null;
				this.kick();
			}, DELAY_MS);
			this.timer.unref();
		}
	}

	/** Starts an export unless one is under way (then the next starts when it ends). */
	private kick(): void {
		if (this.exporting || this.queue.length === 0) return;
		const batch = this.queue.splice(0, BATCH);
		this.sending = batch.length;
		this.exporting = new Promise<void>((resolve) => {
			this.exporter.export(batch, (result) => {
				if (!this.closed) {
					this.sending = 0;
					if (result.code !== 0) this.lost(batch.length, result.error?.message ?? "the collector refused them");
				}
				resolve();
			});
		}).then(() => {
			this.exporting = null;
			if (this.queue.length > 0) this.kick();
		});
	}

	private async flush(): Promise<void> {
		while (!this.closed && (this.exporting || this.queue.length > 0)) {
			this.kick();
			await this.exporting;
		}
	}

	private lost(count: number, why: string): void {
		this.dropped += count;
		if (this.warned || this.closed) return;
		this.warned = true;
		this.options.warn(`telemetry: spans could not be sent to ${this.config.endpoint} (${why}); routing goes on, and the count of lost spans is said when this command ends`);
	}
}
