// What a release needs, checked before the release workflow (.github/workflows/release.yml) makes
// one and in `npm test` after the build: the versions agree (package.json, manifest.json,
// versions.json, the tag, a CHANGELOG section), the manifest follows the community directory's
// rules, the README discloses what the directory asks for and names the release assets, the three
// assets exist, and `npm pack --dry-run` ships the CLI with the docs an agent reads.
//
//   node scripts/check-release.mjs [TAG] [--no-assets] [--no-pack]
//   TAG          the version tag being released (the workflow passes GITHUB_REF_NAME)
//   --no-assets  skip the built files (before `npm run build`)
//   --no-pack    skip `npm pack --dry-run`
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The files a plugin release attaches: what Obsidian, the community directory and BRAT download. */
export const RELEASE_ASSETS = ["main.js", "manifest.json", "styles.css"];

/** What the packed CLI must hold: the command, its bundle, and the docs the README and the registry point to. */
export const PACKED_FILES = ["bin/a2a.cjs", "dist/cli.cjs", "docs/agents.md", "docs/protocol.md", "docs/scale.md", "skills/a2a-communicator/SKILL.md", "CHANGELOG.md", "README.md", "LICENSE", "package.json"];

const MANIFEST_FIELDS = ["id", "name", "version", "minAppVersion", "description", "author", "isDesktopOnly"];

/** The community directory's rules for manifest.json (its submission checks), as a list of problems. */
export function manifestProblems(manifest) {
	const problems = [];
	for (const field of MANIFEST_FIELDS) if (!(field in manifest)) problems.push(`manifest.json has no ${field}`);
	for (const field of ["id", "name", "description"]) {
		const value = String(manifest[field] ?? "");
		if (/obsidian/i.test(value)) problems.push(`manifest.json ${field} contains "obsidian"`);
		if (field !== "description" && /plugin/i.test(value)) problems.push(`manifest.json ${field} contains "plugin"`);
	}
	if (/plugin/i.test(String(manifest.description ?? ""))) problems.push('manifest.json description contains "plugin"');
	if (!/^[a-z0-9-]+$/.test(String(manifest.id ?? ""))) problems.push("manifest.json id is not lowercase letters, digits and dashes");
	const description = String(manifest.description ?? "");
	if (description.length < 10 || description.length > 250) problems.push(`manifest.json description is ${description.length} characters (10 to 250)`);
	if (!/^[A-Za-z0-9 .,!?'"-]*$/.test(description)) problems.push("manifest.json description has characters other than letters, digits, spaces and . , ! ? ' \" -");
	if (!/^[A-Z]/.test(description)) problems.push("manifest.json description does not start with a capital letter");
	if (!description.endsWith(".")) problems.push("manifest.json description does not end with a period");
	if (!/^\d+\.\d+\.\d+$/.test(String(manifest.version ?? ""))) problems.push("manifest.json version is not x.y.z");
	if (typeof manifest.isDesktopOnly !== "boolean") problems.push("manifest.json isDesktopOnly is not true or false");
	return problems;
}

/** The versions agree: package.json, manifest.json, versions.json, the tag (when given, without a "v"), the CHANGELOG. */
export function versionProblems({ pkg, manifest, versions, changelog, tag }) {
	const problems = [];
	if (pkg.version !== manifest.version) problems.push(`package.json version ${pkg.version} is not manifest.json version ${manifest.version}`);
	if (versions[manifest.version] !== manifest.minAppVersion) problems.push(`versions.json does not map ${manifest.version} to minAppVersion ${manifest.minAppVersion}`);
	if (tag !== undefined && tag !== manifest.version) problems.push(`the tag ${tag} is not the version ${manifest.version} (Obsidian reads releases by tags without a "v")`);
	if (!new RegExp(`^## ${manifest.version.replace(/\./g, "\\.")}\\b`, "m").test(changelog)) problems.push(`CHANGELOG.md has no "## ${manifest.version}" section`);
	return problems;
}

/** The README's install section names the release assets; the README discloses network use and files outside the vault. */
export function readmeProblems(readme) {
	const problems = [];
	const install = readme.slice(readme.indexOf("## Install it in your vault"), readme.indexOf("\n## ", readme.indexOf("## Install it in your vault") + 1));
	for (const asset of RELEASE_ASSETS) if (!install.includes(`\`${asset}\``)) problems.push(`the README's install section does not name ${asset}`);
	if (!/\*\*Network use\.\*\*/.test(readme)) problems.push('the README has no "Network use." disclosure');
	if (!/\*\*Files outside the vault\.\*\*/.test(readme)) problems.push('the README has no "Files outside the vault." disclosure');
	return problems;
}

function readJson(file) {
	return JSON.parse(readFileSync(join(ROOT, file), "utf8"));
}

/** The files `npm pack --dry-run --json` would pack. */
export function packedFiles() {
	const result = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--silent"], { cwd: ROOT, encoding: "utf8" });
	if (result.status !== 0) throw new Error(`npm pack --dry-run failed: ${result.stderr}`);
	const [packed] = JSON.parse(result.stdout.slice(result.stdout.indexOf("[")));
	return packed.files.map((f) => f.path).sort();
}

function main() {
	const args = process.argv.slice(2);
	const tag = args.find((a) => !a.startsWith("--"));
	const problems = [];
	const manifest = readJson("manifest.json");
	problems.push(...manifestProblems(manifest));
	const changelog = existsSync(join(ROOT, "CHANGELOG.md")) ? readFileSync(join(ROOT, "CHANGELOG.md"), "utf8") : "";
	problems.push(...versionProblems({ pkg: readJson("package.json"), manifest, versions: readJson("versions.json"), changelog, tag }));
	problems.push(...readmeProblems(readFileSync(join(ROOT, "README.md"), "utf8")));
	if (!args.includes("--no-assets")) {
		for (const asset of [...RELEASE_ASSETS, "dist/cli.cjs"]) if (!existsSync(join(ROOT, asset))) problems.push(`${asset} is not built (run npm run build)`);
	}
	if (!args.includes("--no-pack")) {
		const packed = packedFiles();
		for (const file of PACKED_FILES) if (!packed.includes(file)) problems.push(`npm pack does not ship ${file}`);
		console.log(`check-release: npm pack ships ${packed.join(", ")}`);
	}
	for (const problem of problems) console.log(`  FAIL  ${problem}`);
	console.log(problems.length === 0 ? `check-release: ${manifest.version} is ready to release` : `check-release: ${problems.length} problem(s)`);
	process.exitCode = problems.length === 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
