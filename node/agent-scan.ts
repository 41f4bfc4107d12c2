import { readAgent } from "../src/core/agent";
import type { AgentRecord } from "../src/core/agent";
import { splitNote, parseFrontmatterYaml } from "../src/core/frontmatter";
import { isAgentNotePath } from "../src/core/agent-folders";
import type { VaultPort } from "../src/router/vault-port";

// Reads every agent note below the given folders through the vault port (the CLI's `status`; the
// plugin reads agents from Obsidian's metadata cache instead).

export async function scanAgents(port: VaultPort, folders: string[]): Promise<{ agents: AgentRecord[]; unreadable: string[] }> {
	const agents: AgentRecord[] = [];
	const unreadable: string[] = [];
	const seen = new Set<string>();
	for (const folder of folders) {
		for (const file of await port.listRecursive(folder)) {
			if (seen.has(file.path) || !isAgentNotePath(file.path, folders)) continue;
			seen.add(file.path);
			const read = await port.read(file.path);
			if (read === null) continue;
			const text = read.text;
			try {
				const split = splitNote(text);
				if (!split.hasFrontmatter) continue;
				const agent = readAgent(file.path, parseFrontmatterYaml(split.yaml), split.body, file.mtime);
				if (agent) agents.push(agent);
			} catch {
				unreadable.push(file.path);
			}
		}
	}
	agents.sort((a, b) => a.name.localeCompare(b.name));
	return { agents, unreadable };
}
