import { applyAgentUpdate, newAgentNote, parseAssignment } from "../../src/core/agent-notes";
import { appendFinding } from "../../src/core/findings";
import { readFrontmatter } from "../../src/core/frontmatter";
import { updateFrontmatterText } from "../../src/core/frontmatter";
import { joinPath, safeFileSegment, stem } from "../../src/core/paths";
import { UsageError, one, required } from "../args";
import type { ParsedArgs } from "../args";
import { readPluginSettings } from "../plugin-settings";
import { editNote } from "../../src/router/edit-note";
import { openSession } from "../session";
import type { Session } from "../session";

export const AGENT_HELP = `Usage: a2a agent set NAME key=value... [--vault DIR] [--root NAME] [--json]
       a2a agent finding NAME --action TEXT [--context T] [--data T] [--decisions T] [--next T]

set      updates the agent note's frontmatter in one atomic write (other fields are kept, values
         are read as YAML, so progress_percent=50 stays a number). Creates <root>/agents/NAME.md
         with status: spawned when there is no such agent yet.
         Example: a2a agent set ui-explorer status=running progress_percent=50 "last_action=Checking links"
finding  appends a finding (## [timestamp] ACTION with Context, Data, Decisions, Next steps).`;

async function findAgentNote(session: Session, name: string): Promise<string | null> {
	const { vault, router } = session;
	const shared = await readPluginSettings(vault.dir);
	for (const folder of [router.layout.agentsFolder, ...shared.extraAgentFolders]) {
		for (const file of await vault.listRecursive(folder)) {
			if (!file.path.endsWith(".md")) continue;
			if (stem(file.path) === name) return file.path;
			const read = await vault.read(file.path, { maxBytes: 16384 });
			try {
				if (read !== null && readFrontmatter(read.text)?.agent_id === name) return file.path;
			} catch {
				// An unreadable note is not the agent asked for.
			}
		}
	}
	return null;
}

export async function runAgent(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const [action, name, ...rest] = args.positionals;
	if (action !== "set" && action !== "finding") throw new UsageError("say what to do: a2a agent set NAME key=value... or a2a agent finding NAME --action TEXT");
	if (!name) throw new UsageError(`a2a agent ${action} needs the agent's NAME`);
	if (safeFileSegment(name, "") !== name) throw new UsageError(`agent name "${name}" cannot be a file name: use letters, digits, spaces, "-", "_" and "."`);
	const session = await openSession(args, io);
	const { vault, router } = session;
	const now = Date.now();
	let path = await findAgentNote(session, name);
	let created = false;
	if (path === null) {
		path = joinPath(router.layout.agentsFolder, `${name}.md`);
		created = await vault.create(path, newAgentNote({ name }, now));
	}
	if (action === "finding") {
		if (rest.length > 0) throw new UsageError(`unexpected ${rest.join(" ")}: give the finding's text with --action, --context, --data, --decisions and --next`);
		const finding = { action: required(args, "action", "the finding's title"), context: one(args, "context"), data: one(args, "data"), decisions: one(args, "decisions"), nextSteps: one(args, "next") };
		await editNote(vault, path, (text) => appendFinding(text, finding, new Date(now).toISOString()));
		if (session.json) io.out(JSON.stringify({ path, created }));
		else io.out(`${path}: finding "${finding.action}" appended`);
		return 0;
	}
	if (rest.length === 0 && !created) throw new UsageError("give at least one key=value to set, e.g. status=running progress_percent=10");
	let updates: [string, unknown][];
	try {
		updates = rest.map(parseAssignment);
	} catch (error) {
		throw new UsageError(`${(error as Error).message}; write each field as key=value`);
	}
	let warnings: string[] = [];
	await editNote(vault, path, (text) => updateFrontmatterText(text, (fm) => (warnings = applyAgentUpdate(fm, updates, now))));
	for (const warning of warnings) io.err(`warning: ${warning}`);
	if (session.json) io.out(JSON.stringify({ path, created, fields: Object.fromEntries(updates), warnings }));
	else io.out(`${path}${created ? " (created)" : ""}: ${updates.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ") || "status=\"spawned\""}`);
	return 0;
}
