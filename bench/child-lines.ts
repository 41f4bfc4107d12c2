import type { ChildProcess } from "node:child_process";

/** The first line a child process prints that starts with `{` (a server saying where it listens). */
export function firstJsonLine(child: ChildProcess, what: string): Promise<string> {
	return new Promise((resolve, reject) => {
		let buffer = "";
		child.stdout?.on("data", (chunk: Buffer) => {
			buffer += chunk.toString("utf8");
			const line = buffer.split("\n").find((l) => l.startsWith("{"));
			if (line) resolve(line);
		});
		child.once("exit", (code) => reject(new Error(`${what} exited with ${code}`)));
	});
}
