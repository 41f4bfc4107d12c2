// Findings (seed 000's standard message structure): sections headed `## [TIMESTAMP] ACTION` with
// Context, Data, Decisions and Next steps subsections, appended to an agent note.

const FINDING_HEADING = /^## \[(\d{4}-\d{2}-\d{2}T[^\]\s]+|\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?|\d{2}:\d{2}:\d{2})\][ \t]+(.*\S)[ \t]*$/;

export interface FindingHeading {
	timestamp: string;
	action: string;
	/** True when the timestamp is a time of day only (`HH:MM:SS`). */
	timeOnly: boolean;
}

export function parseFindingHeading(line: string): FindingHeading | null {
	const match = FINDING_HEADING.exec(line.replace(/\r$/, ""));
	if (!match) return null;
	return { timestamp: match[1], action: match[2], timeOnly: /^\d{2}:\d{2}:\d{2}$/.test(match[1]) };
}

export function findingHeadings(body: string): FindingHeading[] {
	const found: FindingHeading[] = [];
	let inFence = false;
	for (const line of body.split("\n")) {
		if (/^(```|~~~)/.test(line)) inFence = !inFence;
		if (inFence) continue;
		const heading = parseFindingHeading(line);
		if (heading) found.push(heading);
	}
	return found;
}

export function latestFinding(body: string): FindingHeading | null {
	const all = findingHeadings(body);
	return all.length > 0 ? all[all.length - 1] : null;
}

export interface Finding {
	action: string;
	context?: string;
	data?: string;
	decisions?: string;
	nextSteps?: string;
}

/** The text to append for one finding; `timestamp` is ISO 8601. */
export function formatFinding(finding: Finding, timestamp: string): string {
	const action = finding.action.replace(/\s+/g, " ").trim() || "Update";
	const sections: [string, string | undefined][] = [
		["Context", finding.context],
		["Data", finding.data],
		["Decisions", finding.decisions],
		["Next steps", finding.nextSteps],
	];
	const parts = [`## [${timestamp}] ${action}`];
	for (const [title, text] of sections) {
		if (text && text.trim() !== "") parts.push(`### ${title}\n${text.trim()}`);
	}
	return `${parts.join("\n\n")}\n`;
}

/** Appends a finding to a note's text, separated from what is there by one blank line. */
export function appendFinding(noteText: string, finding: Finding, timestamp: string): string {
	const base = noteText === "" || noteText.endsWith("\n\n") ? noteText : noteText.endsWith("\n") ? `${noteText}\n` : `${noteText}\n\n`;
	return `${base}${formatFinding(finding, timestamp)}`;
}
