import { describe, expect, it } from "vitest";
import { agentNameProblem } from "../../src/core/agent-folders";
import { firstCandidateNames, safeStem } from "../../src/core/file-names";
import { safeFileSegment } from "../../src/core/paths";
import { artifactNames, safeArtifactName } from "../../src/core/remote-files";

// Issue 27, finding 9: a name the relay derives from outside text (a remote's file name, an outbox
// note's name, a message id) loses every format character (Unicode category Cf) as it loses control
// characters: `a\u202Egnp.md` (right-to-left override) shows as `amd.png` in a file list.

const FORMAT = {
	"U+202E right-to-left override": "\u202e",
	"U+200B zero width space": "\u200b",
	"U+2066 left-to-right isolate": "\u2066",
	"U+FEFF zero width no-break space": "\ufeff",
	"U+061C Arabic letter mark": "\u061c",
	"U+00AD soft hyphen": "\u00ad",
};
const CF = /\p{Cf}/u;

describe("derived names hold no format character", () => {
	for (const [label, char] of Object.entries(FORMAT)) {
		it(`a saved remote artifact, a delivered note, a note id segment (${label})`, () => {
			const artifact = `a${char}gnp.md`;
			expect(safeArtifactName(artifact)).toBe("a-gnp.md");
			for (const name of artifactNames(`${char}rep${char}ort.csv`, 3)) expect(name, name).not.toMatch(CF);
			expect(safeArtifactName(`${char}report.csv`)).toBe("-report.csv");
			expect(safeArtifactName(`${char}${char}`)).toMatch(/^file-[0-9a-f]{8}$/);

			expect(safeStem(`a${char}gnp.md`)).toBe("a-gnp");
			for (const name of firstCandidateNames(`ask${char}.md`, "id-1", 3)) expect(name, name).not.toMatch(CF);

			expect(safeFileSegment(`msg${char}id`)).toBe("msg-id");
			expect(agentNameProblem(`agent${char}`)).toMatch(/cannot be a file name/);
		});
	}

	it("drops a lone surrogate too (written to disk it would become U+FFFD, and the name and its link would disagree)", () => {
		expect(safeArtifactName("a\ud800b.md")).toBe("a-b.md");
		expect(safeStem("x\udc00y.md")).toBe("x-y");
	});

	it("keeps letters, digits and spaces of every script", () => {
		expect(safeArtifactName("Bericht über Ärger.pdf")).toBe("Bericht über Ärger.pdf");
		expect(safeArtifactName("تقرير.csv")).toBe("تقرير.csv");
		expect(safeStem("報告 2026.md")).toBe("報告 2026");
		expect(agentNameProblem("explorer-1")).toBeNull();
	});
});
