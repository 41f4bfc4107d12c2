import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const fakeObsidian = fileURLToPath(new URL("./test-support/fake-obsidian/index.ts", import.meta.url));

export default defineConfig({
	test: {
		projects: [
			{
				test: {
					name: "unit",
					include: ["test/unit/**/*.test.ts"],
					environment: "node",
				},
			},
			{
				// `a2a serve` as a child process, driven over HTTP by the official A2A client: plain Node
				// (its fetch, not happy-dom's), longer timeouts for the processes it starts.
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
		],
	},
});
