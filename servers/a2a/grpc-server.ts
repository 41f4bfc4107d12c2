import * as grpc from "@grpc/grpc-js";
import { A2AService, grpcService } from "@a2a-js/sdk/server/grpc";
import { defaultServerCallContextBuilder } from "@a2a-js/sdk/server";
import type { A2ARequestHandler, ServerCallContextBuilder } from "@a2a-js/sdk/server";
import { tokenMatches } from "./http-io";
import { REQUEST_SIGNAL } from "./note-executor";
import type { WaitingGate } from "./waiting-calls";

// The gRPC binding of `a2a serve --group G --grpc-port N` (contract v3, section 8): the SDK's own gRPC
// service (`@a2a-js/sdk/server/grpc` on `@grpc/grpc-js`, plain JavaScript) over the group's request
// handler, on its own HTTP/2 listener, v1.0. Every call passes the checks an HTTP call passes: the
// bearer token (UNAUTHENTICATED), the bound on calls that wait (RESOURCE_EXHAUSTED, shared with the
// HTTP listener); a call whose client went away stops following its task.

const WAITING_METHODS = /\/(SendStreamingMessage|SubscribeToTask)$/;
const SEND = /\/SendMessage$/;

export interface GrpcServerOptions {
	/** The handler serving the group at the time of a call (a registry change builds a new one). */
	handler: () => A2ARequestHandler | undefined;
	token: string | null;
	waiting: WaitingGate;
}

interface CallUser {
	readonly isAuthenticated: boolean;
	readonly userName: string;
}

export class A2aGrpcServer {
	private readonly server: grpc.Server;
	private readonly signals = new WeakMap<object, AbortSignal>();

	constructor(private readonly options: GrpcServerOptions) {
		this.server = new grpc.Server({ interceptors: [(method, call) => this.intercept(method.path, call)] });
		const contextBuilder: ServerCallContextBuilder = (o) => {
			const context = defaultServerCallContextBuilder(o);
			const signal = o.user ? this.signals.get(o.user) : undefined;
			if (signal) context.state.set(REQUEST_SIGNAL, signal);
			return context;
		};
		// The handler is looked up at each call: a registry change replaces it.
		const requestHandler = new Proxy({} as A2ARequestHandler, {
			get: (_target, name) => {
				const handler = this.options.handler() as unknown as Record<string | symbol, unknown> | undefined;
				if (!handler) throw new Error("the group is no longer served");
				const value = handler[name];
				return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(handler) : value;
			},
		});
		this.server.addService(A2AService, grpcService({ requestHandler, userBuilder: (call) => Promise.resolve(this.user(call)), contextBuilder }) as unknown as grpc.UntypedServiceImplementation);
	}

	/** Listens on host:port (0 picks a free one); resolves with the port. */
	listen(host: string, port: number): Promise<number> {
		const address = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
		return new Promise((resolve, reject) => this.server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
	}

	/** Each call's user carries the signal that its client went away. */
	private user(call: { on(event: "cancelled", listener: () => void): unknown }): CallUser {
		// A call stopped by close() (forceShutdown) is cancelled too.
		const abort = new AbortController();
		call.on("cancelled", () => abort.abort());
		const user: CallUser = { isAuthenticated: this.options.token !== null, userName: "" };
		this.signals.set(user, abort.signal);
		return user;
	}

	/** The token, then the bound on waiting calls, before the SDK's service sees a call. */
	private intercept(path: string, call: grpc.ServerInterceptingCallInterface): grpc.ServerInterceptingCall {
		let release: (() => void) | null = null;
		const refuse = (code: grpc.status, details: string) => call.sendStatus({ code, details, metadata: new grpc.Metadata() });
		const listener = new grpc.ServerListenerBuilder()
			.withOnReceiveMetadata((metadata, next) => {
				const auth = metadata.get("authorization")[0];
				if (this.options.token !== null && !tokenMatches(typeof auth === "string" ? auth : "", this.options.token)) {
					refuse(grpc.status.UNAUTHENTICATED, "unauthorized: send the metadata authorization: Bearer <token>");
					return;
				}
				next(metadata);
			})
			.withOnReceiveMessage((message, next) => {
				const config = (message as { configuration?: { returnImmediately?: boolean } } | undefined)?.configuration;
				if (WAITING_METHODS.test(path) || (SEND.test(path) && config?.returnImmediately !== true)) {
					release = this.options.waiting.enter();
					if (release === null) {
						refuse(grpc.status.RESOURCE_EXHAUSTED, this.options.waiting.busyText());
						return;
					}
				}
				next(message);
			})
			.withOnCancel(() => release?.())
			.build();
		const responder = new grpc.ResponderBuilder()
			.withStart((next) => next(listener))
			.withSendStatus((status, next) => {
				release?.();
				next(status);
			})
			.build();
		return new grpc.ServerInterceptingCall(call, responder);
	}

	close(): void {
		this.server.forceShutdown();
	}
}
