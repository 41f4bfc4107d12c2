import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, expect, it } from "vitest";
import { checkSecretOrigin } from "../../node/secrets";

// Review of issue 27 (L2): a secret's origin pin (<id>.origin) that is a link or a folder is refused
// with a message saying what to do, instead of being checked again and again until the stack overflows.

let home = "";
afterEach(() => {
	if (home) fs.rmSync(home, { recursive: true, force: true });
	home = "";
});

function secretsFolder(): string {
	home = fs.mkdtempSync(path.join(os.tmpdir(), "a2a-pin-"));
	const folder = path.join(home, "a2a-relay", "secrets");
	fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
	return folder;
}

const refusal = (pin: string) => `secret tok is refused: ${pin} must be a plain file of yours: remove it`;

it("a pin that is a symbolic link is refused, and nothing is written through it", () => {
	const folder = secretsFolder();
	const pin = path.join(folder, "tok.origin");
	const target = path.join(home, "elsewhere");
	fs.symlinkSync(target, pin);
	expect(() => checkSecretOrigin("tok", "https://agent.example", { XDG_CONFIG_HOME: home })).toThrow(refusal(pin));
	expect(fs.existsSync(target)).toBe(false);
});

it("a pin that is a folder is refused", () => {
	const folder = secretsFolder();
	const pin = path.join(folder, "tok.origin");
	fs.mkdirSync(pin);
	expect(() => checkSecretOrigin("tok", "https://agent.example", { XDG_CONFIG_HOME: home })).toThrow(refusal(pin));
});

it("a plain pin still pins: the first origin is written, another is refused", () => {
	const folder = secretsFolder();
	const env = { XDG_CONFIG_HOME: home };
	checkSecretOrigin("tok", "https://agent.example", env);
	expect(fs.readFileSync(path.join(folder, "tok.origin"), "utf8")).toBe("https://agent.example\n");
	checkSecretOrigin("tok", "https://agent.example", env);
	expect(() => checkSecretOrigin("tok", "https://other.example", env)).toThrow(/is only sent to https:\/\/agent.example/);
});
