import * as fs from "node:fs";
import * as path from "node:path";
import { NodeVault } from "../node/node-vault";
import { createUnderFreeName } from "../src/router/free-names";
import { buildResponse, messageFileName } from "../src/core/compose";
import { readFrontmatter } from "../src/core/frontmatter";
import { serialiseMessage } from "../src/core/message-serialise";

// A scripted agent for load tests and benchmarks: it answers every request delivered to one
// group's inbox, with a text derived from the request's message_id, by writing the response into
// the group's outbox exactly as `a2a reply` does (buildResponse, then an atomic create under a
// free name). It looks at the names fs.watch reports, and at the whole inbox every second; `stop`
// ends it.

export interface ScriptedAgent {
	/** message_ids answered so far. */
	answered: Set<string>;
	stop(): Promise<void>;
}

export function startScriptedAgent(vaultDir: string, group: string, answerFor: (messageId: string) => string, root = "A2A"): ScriptedAgent {
	const vault = new NodeVault(vaultDir);
	const inbox = `${root}/groups/${group}/inbox`;
	const outbox = `${root}/groups/${group}/outbox`;
	const answered = new Set<string>();
	let stopped = false;
	let wake: (() => void) | null = null;
	// The names fs.watch reported since the last look; the whole inbox is looked at every second.
	const changed = new Set<string>();
	const poke = () => wake?.();
	fs.mkdirSync(path.join(vaultDir, ...inbox.split("/")), { recursive: true });
	const watcher = fs.watch(path.join(vaultDir, ...inbox.split("/")), (_event, name) => {
		if (name) changed.add(`${inbox}/${name.toString()}`);
		poke();
	});

	// A name is reused once the router moved the note away (two ids can share a file name's start),
	// and a freed inode number is reused too: a file is known by its inode, time and size together.
	const seen = new Map<string, string>();
	const answer = async (file: string) => {
		const info = await vault.stat(file);
		const identity = info ? `${info.id ?? ""}:${info.mtime}:${info.size}` : "";
		if (seen.get(file) === identity) return;
		seen.set(file, identity);
		const read = await vault.read(file);
		const fm = read ? readFrontmatter(read.text) : null;
		const id = fm?.message_id;
		if (!fm || typeof id !== "string" || answered.has(id) || fm.kind !== "request" || fm.state !== "delivered") return;
		const request = { messageId: id, traceId: fm.trace_id as string, sourceGroup: fm.source_group as string, targetGroup: group };
		const response = buildResponse({ request, status: "success", answer: answerFor(id) }, Date.now());
		await createUnderFreeName(vault, outbox, messageFileName(response, Date.now()), serialiseMessage(response));
		answered.add(id);
	};

	const loop = (async () => {
		let nextFullLook = 0;
		while (!stopped) {
			let names: string[];
			if (Date.now() >= nextFullLook) {
				names = await vault.list(inbox);
				for (const gone of [...seen.keys()].filter((f) => !names.includes(f))) seen.delete(gone);
				nextFullLook = Date.now() + 1000;
			} else names = [...changed];
			changed.clear();
			for (const file of names) if (file.endsWith(".md")) await answer(file);
			if (changed.size > 0) continue;
			await new Promise<void>((resolve) => {
				wake = resolve;
				setTimeout(resolve, 200);
			});
			wake = null;
		}
	})();

	return {
		answered,
		async stop() {
			stopped = true;
			poke();
			watcher.close();
			await loop;
		},
	};
}
