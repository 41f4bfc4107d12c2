// Files the CLI bundle embeds as text: `import text from "./x.md" with { type: "text" }` (esbuild
// supports this natively; vitest.config.ts gives tests the same module).
declare module "*.md" {
	const text: string;
	export default text;
}
