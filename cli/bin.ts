import { main } from "./main";

void main(process.argv.slice(2), {
	out: (line) => process.stdout.write(`${line}\n`),
	err: (line) => process.stderr.write(`${line}\n`),
}).then((code) => {
	process.exitCode = code;
});
