// Copies the built plugin into a vault (<vault>/.obsidian/plugins/a2a-relay/) and enables it,
// keeping the vault's other enabled plugins. Shared by `npm run demo` and `npm run install-plugin`.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export function installPluginFiles(root, vault) {
	const pluginDir = path.join(vault, ".obsidian", "plugins", "a2a-relay");
	mkdirSync(pluginDir, { recursive: true });
	for (const file of ["main.js", "manifest.json", "styles.css"]) copyFileSync(path.join(root, file), path.join(pluginDir, file));
	const enabledFile = path.join(vault, ".obsidian", "community-plugins.json");
	const enabled = existsSync(enabledFile) ? JSON.parse(readFileSync(enabledFile, "utf8")) : [];
	if (!enabled.includes("a2a-relay")) writeFileSync(enabledFile, `${JSON.stringify([...enabled, "a2a-relay"], null, 2)}\n`);
	return pluginDir;
}
