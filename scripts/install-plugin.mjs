// `npm run install-plugin -- /path/to/vault`: builds A2A Relay and installs it into a vault
// (<vault>/.obsidian/plugins/a2a-relay/), enabled. Restart Obsidian or reload plugins afterwards.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { installPluginFiles } from "./plugin-files.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const target = process.argv[2];
if (!target) {
	console.error("Usage: npm run install-plugin -- /path/to/your/vault");
	process.exit(1);
}
const vault = path.resolve(target);
if (!existsSync(vault) || !statSync(vault).isDirectory()) {
	console.error(`${vault} is not a folder. Give the folder of your Obsidian vault.`);
	process.exit(2);
}
if (!existsSync(path.join(vault, ".obsidian"))) console.warn(`${vault} has no .obsidian folder yet: it becomes one when you open it in Obsidian.`);
const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
const pluginDir = installPluginFiles(root, vault);
console.log(`Installed A2A Relay into ${pluginDir} and enabled it. In Obsidian: Settings → Community plugins (turn off Restricted mode), or reload the app.`);
