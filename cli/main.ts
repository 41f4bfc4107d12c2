import { UsageError, parseArgs } from "./args";
import type { FlagSpec } from "./args";
import { AGENT_HELP, runAgent } from "./commands/agent";
import { INIT_HELP, runInit } from "./commands/init";
import { REPLY_HELP, runReply } from "./commands/reply";
import { ROUTE_HELP, runRoute } from "./commands/route";
import { SEND_HELP, runSend } from "./commands/send";
import { SERVE_HELP, runServe } from "./commands/serve";
import { STATUS_HELP, runStatus } from "./commands/status";
import { VaultError } from "./session";

// `a2a`: the headless twin of the plugin. Exit codes (protocol section 6): 0 done, 1 usage error,
// 2 the vault or registry is unusable.

const MAIN_HELP = `Usage: a2a <command> [options]

Commands:
  init     create the registry and the group folders (never overwrites)
  route    route pending messages and due timeouts, once or --watch
  send     write a request into a group's outbox
  reply    answer a delivered request
  status   show agents and message queues
  agent    update an agent's status note, or append a finding
  serve    serve the groups as A2A agents over HTTP (any A2A client can call them)

Every command takes --vault DIR (default: the current folder), --root NAME (default A2A), --json and
--help. Run \`a2a <command> --help\` for its options.`;

interface Command {
	help: string;
	flags: FlagSpec;
	run: (args: ReturnType<typeof parseArgs>, io: Io) => Promise<number>;
}

interface Io {
	out: (line: string) => void;
	err: (line: string) => void;
}

const COMMANDS: Record<string, Command> = {
	init: { help: INIT_HELP, flags: { values: [], booleans: [] }, run: runInit },
	route: { help: ROUTE_HELP, flags: { values: ["grace", "interval", "margin"], booleans: ["watch"] }, run: runRoute },
	send: {
		help: SEND_HELP,
		flags: { values: ["from", "to", "type", "question", "context", "task", "artifact", "priority", "timeout", "trace", "hop", "parent"], repeated: ["artifact"], booleans: [] },
		run: runSend,
	},
	reply: { help: REPLY_HELP, flags: { values: ["message", "status", "answer", "artifact", "error-code"], repeated: ["artifact"], booleans: [] }, run: runReply },
	status: { help: STATUS_HELP, flags: { values: ["agents", "stale-minutes"], repeated: ["agents"], booleans: [] }, run: runStatus },
	agent: { help: AGENT_HELP, flags: { values: ["action", "context", "data", "decisions", "next"], booleans: [] }, run: runAgent },
	serve: { help: SERVE_HELP, flags: { values: ["host", "port", "token-file", "interval"], booleans: [] }, run: runServe },
};

export async function main(argv: string[], io: Io): Promise<number> {
	const [name, ...rest] = argv;
	if (name === undefined || name === "--help" || name === "-h" || name === "help") {
		io.out(MAIN_HELP);
		return name === undefined ? 1 : 0;
	}
	const command = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
	if (!command) {
		io.err(`a2a: unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(", ")}. Run a2a --help.`);
		return 1;
	}
	try {
		const args = parseArgs(rest, command.flags);
		if (args.booleans.has("help")) {
			io.out(command.help);
			return 0;
		}
		if (name !== "agent" && args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
		return await command.run(args, io);
	} catch (error) {
		if (error instanceof UsageError) {
			io.err(`a2a ${name}: ${error.message}`);
			io.err(`Run a2a ${name} --help for usage.`);
			return 1;
		}
		if (error instanceof VaultError) {
			io.err(`a2a ${name}: ${error.message}`);
			return 2;
		}
		io.err(`a2a ${name}: ${(error as Error).message}`);
		return 2;
	}
}
