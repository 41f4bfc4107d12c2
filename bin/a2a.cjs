#!/usr/bin/env node
// Entry point of the `a2a` command: runs the CLI bundle that `npm run build` makes.
const path = require("node:path");
const fs = require("node:fs");
const bundle = path.join(__dirname, "..", "dist", "cli.cjs");
if (!fs.existsSync(bundle)) {
	process.stderr.write("a2a: the command is not built yet. Run `npm run build` in the A2A Relay folder first.\n");
	process.exit(2);
}
require(bundle);
