// Lint setup. Run eslint from the repository root: the Obsidian rules read ./manifest.json from the
// working directory (minAppVersion, isDesktopOnly, the plugin's name).
//
// - The plugin (main.ts, src/**) gets eslint-plugin-obsidianmd's recommended set, the rule set of the
//   community directory's automated review, type-aware through the TypeScript project service.
// - The plugin may not import a Node built-in (it must load on mobile); src/core, src/router and
//   src/actions may not import `obsidian` either (the pure protocol core, the router and the user
//   actions, shared with the CLI and unit-tested in Node).
// - manifest.json is validated by obsidianmd/validate-manifest (it needs the TypeScript parser
//   with `.json` as an extra extension, or the manifest is never looked at).
// - Tests (and test-support/, what tests and benchmarks share), the CLI, benchmarks and scripts get
//   a lighter, not type-aware configuration.
import { builtinModules } from "node:module";
import { defineConfig, globalIgnores } from "eslint/config";
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";
import obsidianmd from "eslint-plugin-obsidianmd";

const PLUGIN_FILES = ["main.ts", "src/**/*.ts"];
const PURE_FILES = ["src/core/**/*.ts", "src/router/**/*.ts", "src/actions/**/*.ts"];
const TOOLING_TS_FILES = ["test/**/*.ts", "test-support/**/*.ts", "cli/**/*.ts", "node/**/*.ts", "servers/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts", "*.config.ts"];
const JS_FILES = ["**/*.mjs", "**/*.cjs"];

// `acronyms` replaces the rule's default list, so this is the default list of
// eslint-plugin-obsidianmd 0.4.2 (dist/lib/rules/ui/acronyms.js) plus this project's own.
const ACRONYMS = [
	// the plugin's defaults
	"API", "HTTP", "HTTPS", "URL", "DNS", "TCP", "IP", "SSH", "TLS", "SSL", "FTP", "SFTP", "SMTP",
	"JSON", "XML", "HTML", "CSS", "PDF", "CSV", "YAML", "SQL", "PNG", "JPG", "JPEG", "GIF", "SVG",
	"2FA", "MFA", "OAuth", "JWT", "LDAP", "SAML",
	"SDK", "IDE", "CLI", "GUI", "CRUD", "SOAP",
	"CPU", "GPU", "RAM", "SSD", "USB",
	"UI", "OK", "RSS", "S3", "ID", "UUID", "GUID", "SHA", "MD5", "ASCII", "UTF-8", "UTF-16",
	"DOM", "CDN", "FAQ", "AI", "ML", "LLM",
	// this project's
	"A2A", "TTL", "UTC", "ISO",
];

// The recommended config restricts some imports (axios, moment, ...) through
// @typescript-eslint/no-restricted-imports. A later block that sets the same rule replaces its
// options, so keep the recommended entries and add ours to them.
function recommendedRestrictedImportPaths() {
	for (const block of obsidianmd.configs.recommended) {
		const entry = block.rules?.["@typescript-eslint/no-restricted-imports"];
		if (Array.isArray(entry)) return entry.slice(1);
	}
	throw new Error("eslint.config.mjs: eslint-plugin-obsidianmd no longer sets @typescript-eslint/no-restricted-imports; review this config");
}

const NODE_MESSAGE =
	"The plugin must load on mobile, where Node is absent: no Node built-in modules in main.ts or src/. Put Node code in cli/ or behind a port.";
const OBSIDIAN_MESSAGE =
	"src/core, src/router and src/actions are pure (shared with the CLI and tested without Obsidian): no `obsidian` import here. Go through a port the plugin implements.";

const nodeBuiltinNames = [...new Set(builtinModules.filter((name) => !name.startsWith("node:")))].sort();
const nodeBuiltinPaths = nodeBuiltinNames.map((name) => ({ name, message: NODE_MESSAGE }));
const nodeBuiltinPatterns = [{ group: ["node:*", "node:*/**"], message: NODE_MESSAGE }];
const obsidianPaths = [{ name: "obsidian", message: OBSIDIAN_MESSAGE }];

// Dynamic import() of a built-in is not seen by no-restricted-imports.
const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const builtinAlternation = nodeBuiltinNames.map(escapeRegex).join("|");
const dynamicImportOfBuiltin = {
	selector: `ImportExpression > Literal[value=/^(node:.*|${builtinAlternation})$/]`,
	message: NODE_MESSAGE,
};
const dynamicImportOfObsidian = {
	selector: "ImportExpression > Literal[value='obsidian']",
	message: OBSIDIAN_MESSAGE,
};

const restrictedPaths = recommendedRestrictedImportPaths();

export default defineConfig([
	globalIgnores([
		"**/node_modules/",
		"main.js",
		"dist/",
		"coverage/",
		"demo/",
		"test-results/",
		"bench-results/",
		// every JS file of ours is .mjs or .cjs; a .js file is a build output or someone else's code
		"**/*.js",
	]),

	// The plugin: the Obsidian review's rule set, type-aware.
	{
		files: PLUGIN_FILES,
		extends: [obsidianmd.configs.recommended],
		languageOptions: {
			parserOptions: {
				projectService: true,
				tsconfigRootDir: import.meta.dirname,
			},
		},
		rules: {
			"obsidianmd/ui/sentence-case": ["warn", { enforceCamelCaseLower: true, acronyms: ACRONYMS }],
			"@typescript-eslint/no-restricted-imports": [
				"error",
				{ paths: [...restrictedPaths, ...nodeBuiltinPaths], patterns: nodeBuiltinPatterns },
			],
			"no-restricted-syntax": ["error", dynamicImportOfBuiltin],
		},
	},

	// The pure core, router and actions: neither Obsidian nor Node.
	{
		files: PURE_FILES,
		rules: {
			"@typescript-eslint/no-restricted-imports": [
				"error",
				{ paths: [...restrictedPaths, ...nodeBuiltinPaths, ...obsidianPaths], patterns: nodeBuiltinPatterns },
			],
			"no-restricted-syntax": ["error", dynamicImportOfBuiltin, dynamicImportOfObsidian],
		},
	},

	// manifest.json, checked the way the community directory's review checks it.
	{
		files: ["manifest.json"],
		plugins: { obsidianmd },
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: {
				extraFileExtensions: [".json"],
				projectService: false,
				project: null,
			},
		},
		rules: {
			"obsidianmd/validate-manifest": "error",
		},
	},

	// package.json: the dependency check of the Obsidian review (depend/ban-dependencies: packages
	// that have a native or lighter replacement), taken as is from the recommended config.
	...obsidianmd.configs.recommended.filter(
		(block) => Array.isArray(block.files) && block.files.length === 1 && block.files[0] === "package.json",
	),

	// Tests, CLI, benchmarks, scripts written in TypeScript: Node code, not shipped in the plugin.
	{
		files: TOOLING_TS_FILES,
		extends: [js.configs.recommended, tseslint.configs.recommended],
		languageOptions: {
			globals: { ...globals.node },
		},
		rules: {
			"@typescript-eslint/no-unused-vars": ["error", { args: "none", ignoreRestSiblings: true, caughtErrors: "none" }],
		},
	},
	{
		// The CLI runs in plain Node, where `obsidian` has no runtime code at all.
		files: ["cli/**/*.ts", "node/**/*.ts", "servers/**/*.ts"],
		rules: {
			"@typescript-eslint/no-restricted-imports": [
				"error",
				{
					paths: [{ name: "obsidian", allowTypeImports: true, message: "The CLI runs without Obsidian: `obsidian` has no runtime code. Use src/core and src/router through a port." }],
				},
			],
		},
	},
	{
		// Tests run in happy-dom or drive a browser; they build hostile input on purpose and talk to
		// loosely typed fakes.
		files: ["test/**/*.ts", "test/**/*.mjs", "test-support/**/*.ts"],
		languageOptions: {
			globals: { ...globals.browser },
		},
		rules: {
			"no-control-regex": "off",
			"@typescript-eslint/no-explicit-any": "off",
			// fakes of Obsidian's classes hand `this` to callbacks the way the real ones do
			"@typescript-eslint/no-this-alias": "off",
		},
	},

	// Our JavaScript: config files, build and CI scripts, the bin shim.
	{
		files: JS_FILES,
		extends: [js.configs.recommended],
		languageOptions: {
			globals: { ...globals.node },
		},
		rules: {
			"no-unused-vars": ["error", { args: "none", ignoreRestSiblings: true, caughtErrors: "none" }],
		},
	},
]);
