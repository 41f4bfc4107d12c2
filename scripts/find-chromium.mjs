// The Chromium the browser test drives: found on this machine, or installed from Debian when the
// command may do that, or a clear message naming the one command that gets it.
//
// Where it looks, in order:
//   1. $CHROME_PATH, when set (it must then be an executable file: nothing else is tried);
//   2. chromium, chromium-browser, google-chrome, google-chrome-stable in each folder of
//      $A2A_CHROMIUM_SEARCH_PATH when set (a test override that hides the machine's browsers),
//      else of $PATH followed by /usr/bin, /usr/local/bin and /snap/bin.
// When none is found and the process runs as root on a machine with apt-get, it runs
//   apt-get update; apt-get install -y --no-install-recommends chromium
// with its output shown, and uses /usr/bin/chromium. Otherwise it stops with a message.
//
// As a command: node scripts/find-chromium.mjs [--no-install]
//   prints the browser's path and exits 0, or prints why not (stderr) and exits 1.
//   --no-install only looks, never installs.
import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

export const CHROMIUM_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
const USUAL_DIRS = ["/usr/bin", "/usr/local/bin", "/snap/bin"];
/** Where Debian's package puts the browser. */
export const DEBIAN_CHROMIUM = "/usr/bin/chromium";
const APT_INSTALL_ARGS = ["install", "-y", "--no-install-recommends", "chromium"];

function isExecutableFile(path) {
	try {
		if (!statSync(path).isFile()) return false;
		accessSync(path, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

function searchDirs(env) {
	if (env.A2A_CHROMIUM_SEARCH_PATH !== undefined) return env.A2A_CHROMIUM_SEARCH_PATH.split(delimiter).filter(Boolean);
	return [...(env.PATH ?? "").split(delimiter).filter(Boolean), ...USUAL_DIRS];
}

/** The first executable `name` in $PATH (apt-get, sudo), or null. */
function onPath(name, env) {
	for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
		const candidate = join(dir, name);
		if (isExecutableFile(candidate)) return candidate;
	}
	return null;
}

/**
 * Looks, never installs. Returns { path, how } when a browser is found, { error } when $CHROME_PATH
 * names something unusable, or null when there is none.
 */
export function findChromium(env = process.env) {
	if (env.CHROME_PATH) {
		const path = resolve(env.CHROME_PATH);
		return isExecutableFile(path) ? { path, how: "$CHROME_PATH" } : { error: `CHROME_PATH=${env.CHROME_PATH} is not an executable file: point it at a Chromium or Chrome binary, or unset it` };
	}
	for (const name of CHROMIUM_NAMES) {
		for (const dir of searchDirs(env)) {
			const path = join(dir, name);
			if (isExecutableFile(path)) return { path, how: `found ${name} in ${dir}` };
		}
	}
	return null;
}

/** The message for a machine without a browser that this process will not install: one command to run. */
export function missingChromiumMessage({ isRoot, aptGet, sudo }) {
	const looked = `No Chromium for the browser test: looked for ${CHROMIUM_NAMES.join(", ")} (and $CHROME_PATH).`;
	if (aptGet) {
		const as = isRoot ? "" : sudo ? "sudo " : "";
		const install = `${as}apt-get update && ${as}apt-get ${APT_INSTALL_ARGS.join(" ")}`;
		const who = isRoot || sudo ? "" : " (as root)";
		return `${looked}\nInstall Debian's chromium by running${who}:\n\n    ${install}\n\nthen run the tests again (or set CHROME_PATH to a Chromium or Chrome binary).`;
	}
	return `${looked}\nInstall Chromium or Google Chrome with this system's package manager, then run the tests again; if it is not on PATH, set CHROME_PATH to its binary.`;
}

/**
 * Finds the browser, or installs Debian's chromium when running as root with apt-get (and `install`
 * is true). Resolves with its path; throws an Error whose message says what to do otherwise.
 * `log` receives what it does, line by line; apt-get's own output goes straight to the terminal.
 */
export function ensureChromium({ env = process.env, install = true, log = (line) => console.log(line) } = {}) {
	const found = findChromium(env);
	if (found?.error) throw new Error(found.error);
	if (found) {
		log(`Chromium: ${found.path} (${found.how})`);
		return found.path;
	}
	const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
	const aptGet = onPath("apt-get", env);
	if (!install || !isRoot || !aptGet) throw new Error(missingChromiumMessage({ isRoot, aptGet, sudo: onPath("sudo", env) !== null }));

	log("No Chromium on this machine; running as root with apt-get, so installing Debian's chromium:");
	const apt = (args) => {
		log(`$ apt-get ${args.join(" ")}`);
		const result = spawnSync(aptGet, args, { stdio: ["ignore", "inherit", "inherit"], env: { ...env, DEBIAN_FRONTEND: "noninteractive" }, timeout: 15 * 60_000 });
		if (result.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (${result.error?.message ?? `exit status ${result.status}`}); fix that, or set CHROME_PATH to a Chromium or Chrome binary`);
	};
	apt(["update"]);
	apt(APT_INSTALL_ARGS);
	if (!isExecutableFile(DEBIAN_CHROMIUM)) throw new Error(`apt-get installed chromium, but ${DEBIAN_CHROMIUM} is not there: set CHROME_PATH to the browser's binary`);
	log(`Chromium: ${DEBIAN_CHROMIUM} (installed from Debian)`);
	return DEBIAN_CHROMIUM;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	try {
		const path = ensureChromium({ install: !process.argv.includes("--no-install"), log: (line) => console.error(line) });
		console.log(path);
	} catch (error) {
		console.error(error.message);
		process.exitCode = 1;
	}
}
