import { promises as fs } from "node:fs";
import * as path from "node:path";
import { UsageError } from "../args";
import type { ParsedArgs } from "../args";
import { SKILL_NAME, SKILL_TEXT } from "../skill-text";
import type { Session } from "../session";

export const SKILL_HELP = `Usage: a2a skill install DIR [--force] [--json]
       a2a skill show

install  copies the A2A Communicator skill to DIR/${SKILL_NAME}/SKILL.md, for an agent framework that
         reads skills from a folder (for example .claude/skills). An existing SKILL.md that differs
         is kept unless --force is given.
show     prints the skill.`;

export async function runSkill(args: ParsedArgs, io: Pick<Session, "out" | "err">): Promise<number> {
	const [action, dir, extra] = args.positionals;
	if (action === "show") {
		if (dir !== undefined) throw new UsageError(`unexpected argument "${dir}": a2a skill show takes none`);
		io.out(SKILL_TEXT.replace(/\n$/, ""));
		return 0;
	}
	if (action !== "install") throw new UsageError("say what to do: a2a skill install DIR, or a2a skill show");
	if (dir === undefined || dir.trim() === "") throw new UsageError("give the folder the agent framework reads skills from: a2a skill install DIR");
	if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}": give one DIR`);
	const folder = path.join(path.resolve(dir), SKILL_NAME);
	const file = path.join(folder, "SKILL.md");
	const existing = await fs.readFile(file, "utf8").catch(() => null);
	let outcome: "installed" | "unchanged" | "replaced" = "installed";
	if (existing === SKILL_TEXT) outcome = "unchanged";
	else if (existing !== null && !args.booleans.has("force")) {
		throw new UsageError(`${file} exists and differs from this version of the skill: give --force to replace it`);
	} else {
		if (existing !== null) outcome = "replaced";
		await fs.mkdir(folder, { recursive: true });
		await fs.writeFile(file, SKILL_TEXT, "utf8");
	}
	if (args.booleans.has("json")) io.out(JSON.stringify({ path: file, outcome }));
	else io.out(`${file}: ${outcome}`);
	return 0;
}
