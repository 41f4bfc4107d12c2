import { startTelemetry } from "../../node/telemetry/telemetry";
import { promises as fs } from "node:fs";
import { gatewayGroup } from "../../src/core/registry";
import { terminalText } from "../../src/core/terminal-text";
import { Gateway } from "../../servers/a2a/gateway";
import { A2aHttpServer } from "../../servers/a2a/http-server";
import { isLoopback } from "../../servers/a2a/http-io";
import { DEFAULT_MAX_WAITING, WaitingGate } from "../../servers/a2a/waiting-calls";
import { A2aGrpcServer } from "../../servers/a2a/grpc-server";
import { UsageError, integer, one } from "../args";
import type { ParsedArgs } from "../args";
import { VaultError, checkRegistry, openSession } from "../session";
import type { Session } from "../session";

export const DEFAULT_PORT = 41241;

async function readToken(file: string | undefined): Promise<string | null> {
	if (file === undefined) return null;
	let text: string;
	try {
		text = await fs.readFile(file, "utf8");
	} catch (error) {
		throw new UsageError(`--token-file ${file} cannot be read: ${(error as Error).message}`);
	}
	const token = text.trim();
	if (token.length < 16 || /\s/.test(token)) throw new UsageError(`--token-file ${file} must hold one token of at least 16 characters without spaces`);
	return token;
}

export async function runServe(args: ParsedArgs, io: Pick<Session, "out" | "err">, signal?: AbortSignal): Promise<number> {
	const host = one(args, "host") ?? "127.0.0.1";
	const port = integer(args, "port", 0) ?? DEFAULT_PORT;
	if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
	const intervalMs = integer(args, "interval", 50) ?? 2000;
	const maxWaiting = integer(args, "max-waiting", 1) ?? DEFAULT_MAX_WAITING;
	const only = one(args, "group");
	const grpcPort = integer(args, "grpc-port", 0);
	if (grpcPort !== undefined && only === undefined) throw new UsageError("--grpc-port serves one group: give --group ID too");
	if (grpcPort !== undefined && grpcPort > 65535) throw new UsageError(`--grpc-port must be at most 65535, got ${grpcPort}`);
	const token = await readToken(one(args, "token-file"));
	if (token === null && !isLoopback(host)) {
		throw new UsageError(`refusing to serve on ${host} without a token: anyone who can reach that address could write into the vault. Give --token-file FILE, or serve on 127.0.0.1`);
	}
	const session = await openSession(args, io);
	checkRegistry(session);
	const { router, vault } = session;
	const gatewayId = gatewayGroup(router.registry);
	if (!router.layout.hasGroup(gatewayId)) {
		throw new VaultError(`the registry has no gateway group "${gatewayId}": run a2a init --vault ${vault.dir} (it adds the a2a-gateway group to an existing registry and changes nothing else), or mark one group with gateway: true`);
	}
	if (only !== undefined) {
		const entry = router.registry.groups.get(only);
		const why = entry === undefined ? "the registry has no such group" : entry.id === gatewayId ? "it is the gateway group, which sends the requests" : entry.url !== undefined ? "it is a remote group (it has a url:)" : !entry.serve ? "the registry says serve: false" : null;
		if (why !== null) throw new UsageError(`--group ${only} cannot be served: ${why}`);
	}
	let server: A2aHttpServer | null = null;
	router.warnings.sayAsTheyCome((line) => io.err(terminalText(`a2a serve: warning: ${line}`)));
	const telemetry = await startTelemetry(process.env, io.err);
	const gateway = new Gateway(router, vault, {
		intervalMs,
		onWritten: telemetry ? (fields, at) => telemetry.created(fields, at) : undefined,
		onError: (error) => io.err(terminalText(`a2a serve: ${error instanceof Error ? error.message : String(error)}`)),
		onRegistryChange: () => {
			server?.rebuild();
			io.err(`Registry changed: serving ${gateway.servedGroups().map((g) => g.id).join(", ") || "no group"}.`);
		},
	});
	// Listening for Ctrl+C before the ready line is printed: a signal sent on seeing it stops cleanly.
	let stop = () => undefined as void;
	const stopped = new Promise<void>((resolve) => (stop = () => resolve()));
	process.once("SIGINT", stop);
	process.once("SIGTERM", stop);
	signal?.addEventListener("abort", stop);
	await gateway.start();
	const waiting = new WaitingGate(maxWaiting);
	let grpc: A2aGrpcServer | null = null;
	let grpcUrl: string | undefined;
	let base: string;
	try {
		if (grpcPort !== undefined && only !== undefined) {
			grpc = new A2aGrpcServer({ handler: () => server?.handlerFor(only), token, waiting });
			grpcUrl = `${host.includes(":") ? `[${host}]` : host}:${await grpc.listen(host, grpcPort)}`;
		}
		server = new A2aHttpServer(gateway, { host, port, token, log: (line) => io.err(terminalText(line)), group: only, waiting, grpcUrl });
		base = await server.listen();
	} catch (error) {
		grpc?.close();
		await gateway.stop();
		await telemetry?.sink.close();
		process.off("SIGINT", stop);
		process.off("SIGTERM", stop);
		throw new UsageError(`cannot listen on ${host}:${grpcUrl === undefined && grpc !== null ? grpcPort : port}: ${(error as Error).message}`);
	}
	const groups = server.groups().map((g) => ({ id: g.id, url: server.agentUrl(base, g.id) }));
	if (session.json) io.out(JSON.stringify({ url: base, gateway_group: gatewayId, groups, token: token !== null, ...(grpcUrl === undefined ? {} : { grpc: grpcUrl }) }));
	else {
		io.out(`Serving ${groups.length} group(s) as A2A agents at ${base} (requests come from ${gatewayId}); press Ctrl+C to stop.`);
		for (const g of groups) io.out(`  ${g.id}: ${g.url}`);
		if (grpcUrl !== undefined) io.out(`  gRPC: ${grpcUrl}`);
	}
	await stopped;
	process.off("SIGINT", stop);
	process.off("SIGTERM", stop);
	grpc?.close();
	await server.close();
	await gateway.stop();
	await telemetry?.sink.close();
	io.err("a2a serve: stopped.");
	return 0;
}
