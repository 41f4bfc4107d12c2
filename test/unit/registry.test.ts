import { describe, expect, it } from "vitest";
import { COMMUNICATION_DEFAULTS } from "../../src/core/protocol";
import { describeRegistryError, isGroupId, isSecretId, parseRegistry } from "../../src/core/registry";
import { REGISTRY_TEXT } from "./helpers";

// registry.yaml (protocol section 2): a bad entry is reported and skipped, the rest keeps working.

const ids = (text: string) => [...parseRegistry(text).groups.keys()];
const wheres = (text: string) => parseRegistry(text).errors.map((e) => e.where);

describe("groups", () => {
	it("reads the map form with descriptions and folders", () => {
		const registry = parseRegistry(REGISTRY_TEXT);
		expect(registry.usable).toBe(true);
		expect(registry.errors).toEqual([]);
		expect(registry.communication).toEqual({ max_hops: 5, timeout_seconds: 30, retry_attempts: 3, cycle_detection: "chain" });
		expect([...registry.groups.values()]).toEqual([
			{ id: "10-backend-group", description: "Designs the database and the API", serve: true, gateway: false },
			{ id: "20-frontend-group", folder: "skills/20-frontend-group", serve: true, gateway: false },
			{ id: "30-devops-group", serve: true, gateway: false },
			{ id: "40-security-group", serve: true, gateway: false },
		]);
	});

	it("reads the list form, each entry with an id", () => {
		const registry = parseRegistry("groups:\n  - id: 10-backend-group\n    description: API\n  - id: 20-frontend-group\n    folder: skills/20-frontend-group/\n");
		expect(registry.errors).toEqual([]);
		expect([...registry.groups.values()]).toEqual([
			{ id: "10-backend-group", description: "API", serve: true, gateway: false },
			{ id: "20-frontend-group", folder: "skills/20-frontend-group", serve: true, gateway: false },
		]);
	});

	it("uses an entry's id over its key", () => {
		const registry = parseRegistry("groups:\n  backend-alias:\n    id: 30-devops-group\n");
		expect([...registry.groups.keys()]).toEqual(["30-devops-group"]);
		expect(registry.groups.has("backend-alias")).toBe(false);
	});

	it("accepts an entry with no body (a bare key) as a group with defaults", () => {
		expect(ids("groups:\n  10-backend-group:\n  20-frontend-group: ~\n")).toEqual(["10-backend-group", "20-frontend-group"]);
	});

	it("turns a numeric description into text", () => {
		expect(parseRegistry("groups:\n  g:\n    description: 42\n").groups.get("g")?.description).toBe("42");
	});

	it("is usable with no groups at all", () => {
		for (const text of ["", "communication:\n  max_hops: 3\n", "groups:\n", "groups: {}\n", "groups: []\n", "# only a comment\n"]) {
			const registry = parseRegistry(text);
			expect(registry.usable).toBe(true);
			expect(registry.errors).toEqual([]);
			expect(registry.groups.size).toBe(0);
		}
	});

	it("reports groups that are neither a map nor a list", () => {
		const registry = parseRegistry("groups: backend\n");
		expect(registry.usable).toBe(true);
		expect(registry.errors).toEqual([{ where: "groups", message: 'must be a mapping or a list of groups, got "backend"' }]);
	});
});

describe("communication settings", () => {
	it("takes every default when communication is missing", () => {
		expect(parseRegistry("groups:\n  a: {}\n").communication).toEqual(COMMUNICATION_DEFAULTS);
		expect(COMMUNICATION_DEFAULTS).toEqual({ max_hops: 5, timeout_seconds: 30, retry_attempts: 3, cycle_detection: "chain" });
	});

	it("takes the default of each missing field", () => {
		expect(parseRegistry("communication:\n  max_hops: 3\n").communication).toEqual({ max_hops: 3, timeout_seconds: 30, retry_attempts: 3, cycle_detection: "chain" });
		expect(parseRegistry("communication:\n  retry_attempts: 0\n").communication).toEqual({ max_hops: 5, timeout_seconds: 30, retry_attempts: 0, cycle_detection: "chain" });
		expect(parseRegistry("communication:\n").communication).toEqual(COMMUNICATION_DEFAULTS);
	});

	it("reports a bad value, naming the field, and uses the default for it", () => {
		const registry = parseRegistry("communication:\n  max_hops: 0\n  timeout_seconds: fast\n  retry_attempts: 2.5\n");
		expect(registry.communication).toEqual(COMMUNICATION_DEFAULTS);
		expect(registry.errors.map((e) => e.where)).toEqual(["communication.max_hops", "communication.timeout_seconds", "communication.retry_attempts"]);
		expect(registry.errors[0].message).toBe("must be an integer >= 1, got 0; the default 5 is used");
		expect(registry.usable).toBe(true);
	});

	it("reports a communication value that is not a mapping", () => {
		const registry = parseRegistry("communication: [1, 2]\n");
		expect(registry.errors).toEqual([{ where: "communication", message: "must be a mapping; the defaults are used" }]);
		expect(registry.communication).toEqual(COMMUNICATION_DEFAULTS);
	});
});

describe("bad entries: one error each, the rest usable", () => {
	it("reports each bad group id and keeps the good groups", () => {
		const registry = parseRegistry(
			'groups:\n  10-backend-group: {}\n  "-dash-first": {}\n  "has space": {}\n  "../escape": {}\n  20-frontend-group: {}\n  "' + "x".repeat(65) + '": {}\n',
		);
		expect([...registry.groups.keys()]).toEqual(["10-backend-group", "20-frontend-group"]);
		expect(registry.errors).toHaveLength(4);
		expect(registry.errors.map((e) => e.where)).toEqual(["groups.-dash-first", "groups.has space", "groups.../escape", `groups.${"x".repeat(65)}`]);
		expect(registry.errors[0].message).toContain('group id "-dash-first" is not valid');
		expect(registry.usable).toBe(true);
	});

	it("reports list entries by position: a missing id, a bad id, a scalar", () => {
		const registry = parseRegistry("groups:\n  - description: no id\n  - id: ok-group\n  - id: 'bad/id'\n  - just-a-name\n");
		expect([...registry.groups.keys()]).toEqual(["ok-group"]);
		expect(registry.errors.map((e) => e.where)).toEqual(["groups[0]", "groups[2]", "groups[3]"]);
		expect(registry.errors[0].message).toContain("group id nothing is not valid");
		expect(registry.errors[2].message).toBe('must be a mapping (description, folder, id), got "just-a-name"');
	});

	it("reports a duplicate id given through id:, keeping the first", () => {
		const registry = parseRegistry("groups:\n  30-devops-group:\n    description: first\n  alias:\n    id: 30-devops-group\n    description: second\n");
		expect([...registry.groups.values()]).toEqual([{ id: "30-devops-group", description: "first", serve: true, gateway: false }]);
		expect(registry.errors).toEqual([{ where: "groups.alias", message: 'group id "30-devops-group" is defined twice; only the first definition is used' }]);
	});

	it("reports a duplicate id in the list form", () => {
		const registry = parseRegistry("groups:\n  - id: a\n  - id: b\n  - id: a\n");
		expect([...registry.groups.keys()]).toEqual(["a", "b"]);
		expect(wheres("groups:\n  - id: a\n  - id: b\n  - id: a\n")).toEqual(["groups[2]"]);
		expect(registry.usable).toBe(true);
	});

	it("reports a duplicate YAML key, keeping the first and the rest of the registry", () => {
		const registry = parseRegistry("groups:\n  a:\n    description: first\n  b: {}\n  a:\n    description: second\n");
		expect(registry.usable).toBe(true);
		expect([...registry.groups.values()]).toEqual([{ id: "a", description: "first", serve: true, gateway: false }, { id: "b", serve: true, gateway: false }]);
		expect(registry.errors).toEqual([{ where: "groups.a", message: "is defined twice; only the first definition is used" }]);
	});

	it.each([["../x"], ["/abs"], [".hidden/x"], ["x/.hidden"], ["C:\\\\x"], ["C:/x"], ["a/../../b"], [""], ["  "], ["./a"]])(
		"refuses the folder %s, and only that entry",
		(folder) => {
			const registry = parseRegistry(`groups:\n  good: {}\n  bad:\n    folder: "${folder}"\n`);
			expect([...registry.groups.keys()]).toEqual(["good"]);
			expect(registry.errors).toHaveLength(1);
			expect(registry.errors[0].where).toBe("groups.bad");
			expect(registry.errors[0].message).toContain("must be a relative vault folder");
		},
	);

	it("refuses a folder that is not text", () => {
		expect(wheres("groups:\n  bad:\n    folder: [a]\n")).toEqual(["groups.bad"]);
	});

	it("normalises a usable folder (backslashes, doubled and trailing slashes)", () => {
		expect(parseRegistry('groups:\n  g:\n    folder: "skills\\\\10-backend//x/"\n').groups.get("g")?.folder).toBe("skills/10-backend/x");
	});

	it("refuses a folder overlapping another group's folder, naming that group", () => {
		const registry = parseRegistry(
			"groups:\n  a:\n    folder: skills/a\n  b:\n    folder: skills/a/nested\n  c:\n    folder: skills\n  d:\n    folder: skills/a\n  e:\n    folder: skills/ab\n",
		);
		expect([...registry.groups.keys()]).toEqual(["a", "e"]);
		expect(registry.errors.map((e) => e.where)).toEqual(["groups.b", "groups.c", "groups.d"]);
		expect(registry.errors[0].message).toBe('folder "skills/a/nested" overlaps the folder of group "a"');
	});
});

describe("an unusable file", () => {
	it("is unusable when the YAML does not parse, with the reason", () => {
		const registry = parseRegistry("groups:\n  a: [unclosed\n");
		expect(registry.usable).toBe(false);
		expect(registry.groups.size).toBe(0);
		expect(registry.communication).toEqual(COMMUNICATION_DEFAULTS);
		expect(registry.errors).toHaveLength(1);
		expect(registry.errors[0].where).toBe("registry.yaml");
		expect(registry.errors[0].message).toMatch(/^YAML does not parse/);
		expect(describeRegistryError(registry.errors[0])).toMatch(/^registry\.yaml: YAML does not parse/);
	});

	it("is unusable when it is not a mapping", () => {
		expect(parseRegistry("- a\n- b\n")).toMatchObject({ usable: false, errors: [{ where: "registry.yaml", message: "must be a mapping with communication and groups" }] });
	});

	it("is unusable, quickly, for an alias bomb", () => {
		const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"];
		for (let i = 1; i < 9; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(", ")}]`);
		const started = Date.now();
		expect(parseRegistry(lines.join("\n")).usable).toBe(false);
		expect(Date.now() - started).toBeLessThan(2000);
	});
});

describe("isGroupId", () => {
	it("follows ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", () => {
		for (const ok of ["a", "10-backend-group", "A.b_c-d", "9", "x".repeat(64)]) expect(isGroupId(ok)).toBe(true);
		for (const bad of ["", "-a", ".a", "_a", "a b", "a/b", "ä", "x".repeat(65), 10, null, undefined]) expect(isGroupId(bad)).toBe(false);
	});
});

describe("contract v2 additions", () => {
	it("item 14: group ids that differ only in case are a registry error; the first is kept", () => {
		const registry = parseRegistry("groups:\n  Backend: {}\n  backend: {}\n  frontend: {}\n");
		expect([...registry.groups.keys()]).toEqual(["Backend", "frontend"]);
		expect(registry.errors).toEqual([{ where: "groups.backend", message: 'group id "backend" differs from "Backend" only in case: they would share one folder on macOS, Windows and phones; only "Backend" is used' }]);
	});

	it("reads cycle_detection (chain by default, or trace) and reports anything else", () => {
		expect(parseRegistry("groups: {}\n").communication.cycle_detection).toBe("chain");
		expect(parseRegistry("communication:\n  cycle_detection: trace\n").communication.cycle_detection).toBe("trace");
		const bad = parseRegistry("communication:\n  cycle_detection: loose\n");
		expect(bad.communication.cycle_detection).toBe("chain");
		expect(bad.errors[0]).toMatchObject({ where: "communication.cycle_detection" });
	});

	it("reads url (http and https only), token_secret, serve and gateway; a token in the registry is an error", () => {
		const registry = parseRegistry("groups:\n  remote:\n    url: https://agents.example/a2a/\n    token_secret: partner-token\n  quiet:\n    serve: false\n  door:\n    gateway: true\n  bad:\n    url: file:///etc/passwd\n  leaky:\n    token: abc\n");
		expect(registry.groups.get("remote")).toMatchObject({ url: "https://agents.example/a2a/", tokenSecret: "partner-token", serve: true });
		expect(registry.groups.get("quiet")).toMatchObject({ serve: false });
		expect(registry.groups.get("door")).toMatchObject({ gateway: true });
		expect(registry.groups.has("bad")).toBe(false);
		expect(registry.errors.map((e) => e.where)).toEqual(["groups.bad", "groups.leaky"]);
		expect(registry.errors[1].message).toContain("token_secret");
	});

	it("issue 27: token_file is a registry error that says what to do instead; token_secret is a secret id, never a path", () => {
		for (const file of ["~/.git-credentials", "../x", "/etc/passwd", "secrets/x.token"]) {
			const registry = parseRegistry(`groups:\n  remote:\n    url: https://agents.example/a2a/\n    token_file: ${file}\n`);
			expect(registry.groups.has("remote")).toBe(false);
			expect(registry.errors).toHaveLength(1);
			expect(registry.errors[0].message).toContain("token_file is no longer read");
			expect(registry.errors[0].message).toContain("token_secret: <id>");
			expect(registry.errors[0].message).toContain("A2A_SECRET_<ID>");
			expect(registry.errors[0].message).toContain("a2a-relay/secrets");
		}
		for (const id of ["../x", "~/.git-credentials", "Partner", "a/b", "a.b", "-a", "a-", "", "a".repeat(65), 12]) {
			const registry = parseRegistry(`groups:\n  remote:\n    url: https://agents.example/a2a/\n    token_secret: ${JSON.stringify(id)}\n`);
			expect(registry.groups.has("remote"), String(id)).toBe(false);
			expect(registry.errors[0].message).toContain("must be a secret id");
		}
		for (const id of ["a", "partner-token", "x1-y2", "a".repeat(64)]) expect(isSecretId(id)).toBe(true);
	});
});

describe("review 2: a group's folder is never one of the router's own", () => {
	it.each([
		["A2A/dead-letter", 'overlaps the dead-letter folder A2A/dead-letter'],
		["A2A/log/g1", "overlaps the log folder A2A/log"],
		["A2A/agents", "overlaps the agents folder A2A/agents"],
		["A2A", "holds the A2A folder A2A"],
		["Team", null],
	])("folder %s", (folder, clash) => {
		const registry = parseRegistry(`groups:\n  g1:\n    folder: ${folder}\n`, "A2A");
		if (clash === null) {
			expect(registry.errors).toEqual([]);
			expect([...registry.groups.keys()]).toEqual(["g1"]);
		} else {
			expect(registry.errors).toEqual([{ where: "groups.g1", message: `folder "${folder}" ${clash}: a group's notes would be taken for the router's own` }]);
			expect(registry.groups.size).toBe(0);
		}
	});
});
