import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
// @ts-expect-error -- a plain .mjs script without types
import { PACKED_FILES, RELEASE_ASSETS, manifestProblems, readmeProblems, versionProblems } from "../../scripts/check-release.mjs";

// Issue 28, item 9: releases the way Obsidian plugins ship. The workflow's shape is checked here;
// its checks (scripts/check-release.mjs) run on this repository's files here, and after the build
// in `npm test` with the built assets and `npm pack --dry-run`.

const repo = path.resolve(__dirname, "..", "..");
const read = (file: string) => readFileSync(path.join(repo, file), "utf8");
const json = (file: string) => JSON.parse(read(file)) as Record<string, unknown>;

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, string>;
	env?: Record<string, string>;
}

describe("the release workflow", () => {
	const workflow = parse(read(".github/workflows/release.yml")) as { on: { push: { tags: string[] } }; permissions: Record<string, string>; jobs: Record<string, { steps: Step[] }> };
	const steps = Object.values(workflow.jobs)[0].steps;
	const runs = steps.map((s) => s.run ?? "");
	const index = (pattern: RegExp) => runs.findIndex((r) => pattern.test(r));

	it("runs on a version tag without a v, the tags npm version makes here (.npmrc)", () => {
		expect(workflow.on.push.tags).toEqual(["[0-9]+.[0-9]+.[0-9]+"]);
		expect(read(".npmrc")).toMatch(/^tag-version-prefix=""$/m);
		expect(workflow.permissions).toEqual({ contents: "write" });
	});

	it("installs with npm ci, builds, checks, then releases the three assets and publishes the CLI with NPM_TOKEN", () => {
		const order = [index(/^npm ci$/), index(/^npm run build$/), index(/^node scripts\/check-release\.mjs "\$GITHUB_REF_NAME"$/), index(/gh release create/), index(/^npm publish/)];
		expect(order.every((i) => i >= 0)).toBe(true);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
		const release = steps[index(/gh release create/)];
		expect(release.run).toMatch(new RegExp(`gh release create "\\$tag" .*${RELEASE_ASSETS.join(" ")}$`, "m"));
		expect(release.env).toEqual({ GH_TOKEN: "${{ secrets.GITHUB_TOKEN }}" });
		expect(steps[index(/^npm publish/)].env).toEqual({ NODE_AUTH_TOKEN: "${{ secrets.NPM_TOKEN }}" });
		expect(steps.find((s) => s.uses?.startsWith("actions/setup-node"))?.with).toMatchObject({ "node-version": "20.x", "registry-url": "https://registry.npmjs.org" });
	});

	it("publishes a package that declares its files: the command, its bundle and the docs an agent reads", () => {
		const files = (json("package.json").files as string[]).sort();
		for (const file of PACKED_FILES as string[]) if (!["README.md", "LICENSE", "package.json"].includes(file)) expect(files).toContain(file);
	});
});

describe("what a release needs, on this repository's files", () => {
	it("the manifest follows the community directory's rules", () => {
		expect(manifestProblems(json("manifest.json"))).toEqual([]);
	});

	it("the versions agree (package.json, manifest.json, versions.json, the CHANGELOG)", () => {
		const files = { pkg: json("package.json"), manifest: json("manifest.json"), versions: json("versions.json"), changelog: read("CHANGELOG.md") };
		expect(versionProblems(files)).toEqual([]);
		expect(versionProblems({ ...files, tag: json("manifest.json").version })).toEqual([]);
	});

	it("the README discloses network use and files outside the vault, and its install section names the release assets", () => {
		expect(readmeProblems(read("README.md"))).toEqual([]);
	});

	it("the checks refuse what the directory and a release refuse", () => {
		const manifest = json("manifest.json");
		expect(manifestProblems({ ...manifest, id: "obsidian-a2a" })).toContain('manifest.json id contains "obsidian"');
		expect(manifestProblems({ ...manifest, description: "routes messages" })).toEqual(["manifest.json description does not start with a capital letter", "manifest.json description does not end with a period"]);
		const files = { pkg: json("package.json"), manifest, versions: json("versions.json"), changelog: read("CHANGELOG.md") };
		expect(versionProblems({ ...files, tag: `v${String(manifest.version)}` })).toHaveLength(1);
		expect(readmeProblems(read("README.md").replace("**Network use.**", ""))).toEqual(['the README has no "Network use." disclosure']);
	});
});
