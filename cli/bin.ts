import { main } from "./main";

// The `a2a` process: stdout and stderr as the CLI's output, the exit code as main's.
//
// A reader that goes away early (`a2a status --json | head -1`) is normal use in a script: the
// first EPIPE on stdout makes every later line a no-op, asks a watching router to stop as Ctrl+C
// would, and the process ends with status 0 and nothing on stderr.

let stdoutClosed = false;
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
	if (error.code === "EPIPE" || (stdoutClosed && error.code === "ERR_STREAM_DESTROYED")) {
		if (!stdoutClosed) {
			stdoutClosed = true;
			process.emit("SIGTERM");
		}
		return;
	}
	throw error;
});

void main(process.argv.slice(2), {
	out: (line) => {
		if (!stdoutClosed) process.stdout.write(`${line}\n`);
	},
	err: (line) => process.stderr.write(`${line}\n`),
}).then((code) => {
	process.exitCode = stdoutClosed ? 0 : code;
});
