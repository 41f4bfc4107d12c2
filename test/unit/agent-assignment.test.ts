import { describe, expect, it } from "vitest";
import { parseAssignment } from "../../src/core/agent-notes";

// `a2a agent set NAME key=value`: a key that no frontmatter can hold is refused, never reported as
// written (`__proto__` was printed as set while nothing was written; found by an outside review).

describe("agent set's key=value", () => {
	it("refuses __proto__ as a field name, and keeps other values as written", () => {
		expect(() => parseAssignment("__proto__=x")).toThrow(/not a usable field name/);
		expect(parseAssignment("last_action=#1 check links")).toEqual(["last_action", "#1 check links"]);
	});
});
