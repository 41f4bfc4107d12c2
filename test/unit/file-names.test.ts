import { describe, expect, it } from "vitest";
import { candidateNames, firstCandidateNames, isCandidateName } from "../../src/core/file-names";

// The sequence of names a note is written under (src/core/file-names.ts): every name it yields is
// recognised as one of the note's own (an interrupted delivery is found again), and no other is.

describe("candidateNames", () => {
	it("goes on past the first series with names that carry a hash of the whole id, all distinct, all recognised", () => {
		for (const id of ["message-0001", "x", undefined]) {
			const names = firstCandidateNames("ask.md", id, 200);
			expect(new Set(names).size).toBe(200);
			for (const name of names) expect(isCandidateName("ask.md", id, name), `${String(id)} ${name}`).toBe(true);
		}
		const [first, second] = [firstCandidateNames("ask.md", "message-0001", 60), firstCandidateNames("ask.md", "message-0002", 60)];
		// The first series is shared by ids that start alike; the hash names are not.
		expect(first.slice(0, 50)).toEqual(second.slice(0, 50));
		expect(first.slice(50).filter((n) => second.includes(n))).toEqual([]);
	});

	it("recognises no name of another note or another id", () => {
		expect(isCandidateName("ask.md", "message-0001", "other.md")).toBe(false);
		expect(isCandidateName("ask.md", "message-0001", firstCandidateNames("ask.md", "message-0002", 60)[55])).toBe(false);
		expect(isCandidateName("ask.md", "message-0001", "ask-99.md")).toBe(false);
	});

	it("is a generator: a caller takes only what it needs", () => {
		const names = candidateNames("ask.md", "m-1");
		expect(names.next().value).toBe("ask.md");
		expect(names.next().value).toBe("ask-m1.md");
	});
});
