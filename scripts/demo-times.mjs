// The demo vault ships agent notes whose times were written once; `npm run demo` brings them up to
// now so the sidebar shows a living vault. Every shipped agent gets a last update a few minutes
// before the demo ends, except one, STALE_AGENT, which stopped reporting on purpose (longer ago than
// the demo vault's stale limit, 30 minutes in its settings) to show how a stalled agent looks.
// Only the notes listed here are touched, and only their `updated` and `spawned_at` lines; the
// time an agent has been alive (updated - spawned_at) is kept.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The agent that stays stale, as the README names it. */
export const STALE_AGENT = { id: "api-validator-20260115", path: "Runs/API_Validator_20260115.md" };

/** Minutes between each shipped agent's last update and the end of the demo. */
export const SHIPPED_AGENT_AGES = {
	"A2A/agents/form-builder.md": 1,
	"A2A/agents/api-planner.md": 2,
	"A2A/agents/schema-designer.md": 3,
	"A2A/agents/compliance-auditor.md": 4,
	"A2A/agents/deployer.md": 6,
	"Runs/UI_Explorer_20260115.md": 5,
	[STALE_AGENT.path]: 47,
};

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

function fieldTime(frontmatter, name) {
	const match = new RegExp(`^${name}:\\s*["']?([^"'\\r\\n]+)["']?\\s*$`, "m").exec(frontmatter);
	const time = match ? Date.parse(match[1]) : NaN;
	return Number.isNaN(time) ? null : time;
}

function setField(frontmatter, name, value) {
	const line = new RegExp(`^${name}:.*$`, "m");
	return line.test(frontmatter) ? frontmatter.replace(line, `${name}: ${value}`) : `${frontmatter}\n${name}: ${value}`;
}

/** ISO 8601 to the second, as the shipped notes write it. */
const iso = (time) => new Date(Math.floor(time / 1000) * 1000).toISOString().replace(".000Z", "Z");

/**
 * Rewrites the shipped agents' `updated` (and `spawned_at`) relative to `now`. Returns one line per
 * note, saying what it did; a listed note that is missing or has no frontmatter is skipped.
 */
export function refreshShippedAgentTimes(vault, now) {
	const done = [];
	for (const [rel, minutes] of Object.entries(SHIPPED_AGENT_AGES)) {
		const file = path.join(vault, ...rel.split("/"));
		if (!existsSync(file)) continue;
		const text = readFileSync(file, "utf8");
		const match = FRONTMATTER.exec(text);
		if (!match) continue;
		let frontmatter = match[1];
		const updated = now - minutes * 60_000;
		const oldUpdated = fieldTime(frontmatter, "updated");
		const oldSpawned = fieldTime(frontmatter, "spawned_at");
		frontmatter = setField(frontmatter, "updated", iso(updated));
		if (oldSpawned !== null) {
			const alive = oldUpdated !== null && oldUpdated >= oldSpawned ? oldUpdated - oldSpawned : 0;
			frontmatter = setField(frontmatter, "spawned_at", iso(updated - alive));
		}
		const eol = match[0].includes("\r\n") ? "\r\n" : "\n";
		writeFileSync(file, `---${eol}${frontmatter}${eol}---${eol}${text.slice(match[0].length)}`);
		done.push(`${rel}: updated ${minutes} min ago${rel === STALE_AGENT.path ? " (stale on purpose)" : ""}`);
	}
	return done;
}
