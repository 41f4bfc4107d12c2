import { terminalBlock, terminalText } from "../src/core/terminal-text";
import { version } from "../package.json";
import { Refused } from "../src/router/refused";
import { UsageError, closest, parseArgs } from "./args";
import type { FlagSpec } from "./args";
import { AGENT_HELP, runAgent } from "./commands/agent";
import { INBOX_HELP, runInbox } from "./commands/inbox";
import { INIT_HELP, runInit } from "./commands/init";
import { MCP_HELP } from "./commands/mcp-help";
import { READ_HELP, runRead } from "./commands/read";
import { REPLY_HELP, runReply } from "./commands/reply";
import { ROUTE_HELP, runRoute } from "./commands/route";
import { SEND_FLAGS, SEND_HELP, runSend } from "./commands/send";
import { SERVE_HELP } from "./commands/serve-help";
import { SKILL_HELP, runSkill } from "./commands/skill";
import { STATUS_HELP, runStatus } from "./commands/status";
import { TAKE_HELP, runTake } from "./commands/take";
import { TRACE_HELP, runTrace } from "./commands/trace";
import { WAIT_HELP, runWait } from "./commands/wait";
import { VaultError } from "./session";

// `a2a`: the headless twin of the plugin. Exit codes (protocol section 6): 0 done, 1 usage error,
// 2 the vault or registry is unusable, 3 (`wait`) the time given passed with nothing changed.

const MAIN_HELP = `Usage: a2a <command> [options]

Commands:
  init     create the registry and the group folders (never overwrites)
  route    route pending messages and due timeouts, once or --watch
  send     write a request into a group's outbox
  reply    answer a delivered request
  inbox    list what waits for a group: requests to answer, responses to take
  read     print one message whole
  wait     wait for the outcome of a request (exit 3 when the time given passes)
  take     take a response out of its requester's inbox into its archive
  trace    print a conversation's messages in order, with where each is now
  status   show agents and message queues
  agent    update an agent's status note, or append a finding
  mcp      serve a group's mailbox as MCP tools over stdio (for LLM agents)
  serve    serve the groups as A2A agents over HTTP (any A2A client can call them)
  skill    install the A2A Communicator skill for an agent framework

Every command takes --vault DIR, --root NAME (default A2A), --json and --help. Without --vault the
vault is $A2A_VAULT, else the nearest folder upward from the current one that holds
<root>/registry.yaml or <root>/registry.md. Run \`a2a <command> --help\` for its options;
a2a --version (or -v) prints the version.`;

interface Command {
	help: string;
	flags: FlagSpec;
	run: (args: ReturnType<typeof parseArgs>, io: Io) => Promise<number>;
	/** The command reads positional arguments (an ID, a NAME, a DIR). */
	positionals?: boolean;
	/** How the command names the fields a refusal (src/router/refused.ts) points at; `--field` otherwise. */
	fields?: Record<string, string>;
}

interface Io {
	out: (line: string) => void;
	err: (line: string) => void;
}

// The two servers (their HTTP, MCP and gRPC libraries) are loaded only by the commands that run
// them: every other command starts without setting them up (one bundle still: esbuild initialises
// a module imported this way on first use).
const COMMANDS: Record<string, Command> = {
	init: { help: INIT_HELP, flags: { values: [], booleans: ["registry-note"] }, run: runInit },
	route: { help: ROUTE_HELP, flags: { values: ["grace", "interval", "margin", "forward-wait"], booleans: ["watch"] }, run: runRoute },
	send: {
		help: SEND_HELP,
		flags: { values: ["from", "to", "type", "question", "context", "task", "artifact", "priority", "timeout", "trace", "hop", "parent"], repeated: ["artifact"], booleans: [] },
		run: runSend,
		fields: SEND_FLAGS,
	},
	reply: {
		help: REPLY_HELP,
		flags: { values: ["message", "status", "answer", "artifact", "error-code"], repeated: ["artifact"], booleans: [] },
		run: runReply,
		fields: { message_id: "--message" },
	},
	inbox: { help: INBOX_HELP, flags: { values: ["group"], booleans: [] }, run: runInbox },
	read: { help: READ_HELP, flags: { values: [], booleans: [] }, run: runRead, positionals: true, fields: { message_id: "ID" } },
	wait: { help: WAIT_HELP, flags: { values: ["message", "timeout"], booleans: [] }, run: runWait, fields: { message_id: "--message" } },
	take: { help: TAKE_HELP, flags: { values: [], booleans: [] }, run: runTake, positionals: true, fields: { message_id: "ID" } },
	trace: { help: TRACE_HELP, flags: { values: [], booleans: [] }, run: runTrace, positionals: true, fields: { trace_id: "ID" } },
	status: { help: STATUS_HELP, flags: { values: ["agents", "stale-minutes"], repeated: ["agents"], booleans: [] }, run: runStatus },
	agent: { help: AGENT_HELP, flags: { values: ["action", "context", "data", "decisions", "next"], booleans: [] }, run: runAgent, positionals: true, fields: { agent: "" } },
	mcp: { help: MCP_HELP, flags: { values: ["group", "agent"], booleans: [] }, run: async (args, io) => (await import("./commands/mcp")).runMcp(args, io), fields: { agent: "--agent" } },
	serve: { help: SERVE_HELP, flags: { values: ["host", "port", "token-file", "interval", "group", "max-waiting", "grpc-port"], booleans: [] }, run: async (args, io) => (await import("./commands/serve")).runServe(args, io) },
	skill: { help: SKILL_HELP, flags: { values: [], booleans: ["force"] }, run: runSkill, positionals: true },
};

/** `--flag: ` (or `ID: `) for the field a refusal names, in the command's own terms. */
function fieldPrefix(command: Command, field: string | undefined): string {
	if (field === undefined) return "";
	const name = command.fields?.[field] ?? `--${field.replace(/_/g, "-")}`;
	return name === "" ? "" : `${name}: `;
}

/**
 * The last guard on what a person reads: every human-readable line terminal-safe, its line breaks
 * kept (the commands escape each field themselves, newlines included: src/core/terminal-text.ts);
 * stdout's JSON lines (with --json) as they are.
 */
function guarded(io: Io, json: boolean): Io {
	return { out: json ? io.out : (line) => io.out(terminalBlock(line)), err: (line) => io.err(terminalBlock(line)) };
}

export async function main(argv: string[], rawIo: Io): Promise<number> {
	const [name, ...rest] = argv;
	let io = guarded(rawIo, false);
	if (name === undefined || name === "--help" || name === "-h" || name === "help") {
		io.out(MAIN_HELP);
		return name === undefined ? 1 : 0;
	}
	if (name === "--version" || name === "-v" || name === "version") {
		io.out(version);
		return 0;
	}
	const command = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
	if (!command) {
		const guess = closest(name, Object.keys(COMMANDS));
		io.err(`a2a: unknown command "${name}"${guess ? ` (did you mean a2a ${guess}?)` : ""}. Commands: ${Object.keys(COMMANDS).join(", ")}. Run a2a --help.`);
		return 1;
	}
	try {
		const args = parseArgs(rest, command.flags);
		io = guarded(rawIo, args.booleans.has("json"));
		if (args.booleans.has("help")) {
			io.out(command.help);
			return 0;
		}
		if (!command.positionals && args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
		return await command.run(args, io);
	} catch (error) {
		if (error instanceof Refused) {
			io.err(`a2a ${name}: ${fieldPrefix(command, error.field)}${terminalText(error.message)}`);
			return 1;
		}
		if (error instanceof UsageError) {
			io.err(`a2a ${name}: ${terminalText(error.message)}`);
			io.err(`Run a2a ${name} --help for usage.`);
			return 1;
		}
		if (error instanceof VaultError) {
			io.err(`a2a ${name}: ${terminalText(error.message)}`);
			return 2;
		}
		io.err(`a2a ${name}: ${terminalText((error as Error).message)}`);
		return 2;
	}
}
