// Whether the CLI exports spans, read from OpenTelemetry's standard environment variables
// (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/): nothing of
// the SDK is loaded, and nothing is sent, unless an OTLP endpoint is named and the SDK is not disabled.

export interface TelemetryConfig {
	/** Where spans go (for the warning the CLI prints when they cannot be sent). */
	endpoint: string;
	protocol: "http/json" | "http/protobuf";
	serviceName: string;
	/** `A2A_OTEL_INCLUDE_TEXT=true`: error messages written by agents may leave the vault in spans. */
	includeText: boolean;
}

const TRUE = /^(true|1|yes|on)$/i;

/** The telemetry the environment asks for, or null (with the reason, when it asks for something this CLI cannot do). */
export function telemetryConfig(env: NodeJS.ProcessEnv): { config: TelemetryConfig | null; problem?: string } {
	if (TRUE.test(env.OTEL_SDK_DISABLED ?? "")) return { config: null };
	const exporters = (env.OTEL_TRACES_EXPORTER ?? "otlp").split(",").map((e) => e.trim().toLowerCase());
	if (exporters.includes("none") || !exporters.includes("otlp")) return { config: null };
	const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
	const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
	if (!traces && !base) return { config: null };
	const endpoint = traces || `${(base as string).replace(/\/+$/, "")}/v1/traces`;
	const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf").trim().toLowerCase();
	if (protocol !== "http/json" && protocol !== "http/protobuf") {
		return { config: null, problem: `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: a2a exports over OTLP/HTTP (http/protobuf or http/json); no spans are sent` };
	}
	let url: URL;
	try {
		url = new URL(endpoint);
	} catch {
		return { config: null, problem: `the OTLP endpoint ${endpoint} is not a URL; no spans are sent` };
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") return { config: null, problem: `the OTLP endpoint ${endpoint} is not http(s); no spans are sent` };
	return {
		config: {
			endpoint,
			protocol,
			serviceName: env.OTEL_SERVICE_NAME?.trim() || "a2a-relay",
			includeText: TRUE.test(env.A2A_OTEL_INCLUDE_TEXT ?? ""),
		},
	};
}
