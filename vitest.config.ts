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
