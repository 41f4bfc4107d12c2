import { defineConfig } from "vitest/config";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const fakeObsidian = fileURLToPath(new URL("./test-support/fake-obsidian/index.ts", import.meta.url));

// `import text from "./x.md" with { type: "text" }` (the CLI embeds its skill file this way; esbuild
// supports it natively): the same module in tests, the file's text as its default export.
const markdownAsText = {
	name: "markdown-as-text",
	enforce: "pre" as const,
	load(id: string) {
		const file = id.replace(/\?.*$/, "");
		return file.endsWith(".md") ? `export default ${JSON.stringify(readFileSync(file, "utf8"))};` : null;
	},
};

export default defineConfig({
	test: {
		globalSetup: ["test-support/cache-dir-setup.ts"],
		projects: [
			{
				plugins: [markdownAsText],
				test: {
					name: "unit",
					include: ["test/unit/**/*.test.ts"],
					environment: "node",
				},
			},
			{
				// `a2a serve` as a child process, driven over HTTP by the official A2A client: plain Node
				// (its fetch, not happy-dom's), longer timeouts for the processes it starts.
				plugins: [markdownAsText],
				test: {
					name: "a2a",
					include: ["test/a2a/**/*.test.ts"],
					environment: "node",
					testTimeout: 60000,
					hookTimeout: 60000,
				},
			},
			{
				// The built main.js sits beside main.ts: tests run the TypeScript source.
				plugins: [markdownAsText],
				resolve: { alias: { obsidian: fakeObsidian }, extensions: [".ts", ".mts", ".mjs", ".js", ".json"] },
				test: {
					name: "integration",
					include: ["test/integration/**/*.test.ts", "test/fake-obsidian/**/*.test.ts", "test/cli/**/*.test.ts"],
					environment: "happy-dom",
					setupFiles: ["test-support/fake-obsidian/setup-dom.ts"],
					testTimeout: 30000,
					hookTimeout: 30000,
				},
			},
			{
				// Agents and routers as real processes, driven by the official MCP client SDK over stdio.
				plugins: [markdownAsText],
				test: {
					name: "mcp",
					include: ["test/mcp/**/*.test.ts"],
					environment: "node",
					testTimeout: 120000,
					hookTimeout: 120000,
				},
			},
		],
	},
});
