import fc from "fast-check";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { Message, RequestEnvelope, ResponseEnvelope } from "../../src/core/message";
import { readRawMessage } from "../../src/core/message-parse";
import type { RawMessage } from "../../src/core/message-parse";
import { parseRegistry } from "../../src/core/registry";
import type { Registry } from "../../src/core/registry";
import { validateRaw } from "../../src/core/validate";
import type { Problem, ValidationContext } from "../../src/core/validate";

// Shared helpers of the unit tests: fixture loading, and reading a note the way the router does.

const SEED_DIR = fileURLToPath(new URL("../fixtures/seed/", import.meta.url));

/** The text of a fixture in test/fixtures/seed, byte for byte. */
export function seedFixture(name: string): string {
	return readFileSync(`${SEED_DIR}${name}`, "utf8");
}

/** readRawMessage that must succeed. */
export function rawOf(text: string, path = "note.md"): RawMessage {
	const read = readRawMessage(text, path);
	if (!read.ok) throw new Error(`expected ${path} to read, got: ${read.reason}`);
	return read.raw;
}

/** Reads and validates a note; fails the test when either step fails. */
export function messageOf(text: string, path = "note.md", context: ValidationContext = {}): Message {
	const validation = validateRaw(rawOf(text, path), context);
	if (!validation.ok) throw new Error(`expected ${path} to validate, got: ${JSON.stringify(validation.problems)}`);
	return validation.message;
}

/** The problems of a note that must not validate. */
export function problemsOf(text: string, path = "note.md", context: ValidationContext = {}): Problem[] {
	const validation = validateRaw(rawOf(text, path), context);
	if (validation.ok) throw new Error(`expected ${path} not to validate, got ${JSON.stringify(validation.message)}`);
	return validation.problems;
}

export function problemFields(problems: Problem[]): string[] {
	return problems.map((p) => p.field).sort();
}

/** A note with flat frontmatter built from YAML lines. */
export function note(yamlLines: string[], body = ""): string {
	return `---\n${yamlLines.join("\n")}\n---\n${body}`;
}

export const TRACE = "a1b2c3d4-e5f6-7890-abcd-ef1234567890";
export const TRACE_2 = "b2c3d4e5-f6a7-8901-bcde-f23456789012";

export function requestEnvelope(overrides: Partial<RequestEnvelope> = {}): RequestEnvelope {
	return {
		kind: "request",
		trace_id: TRACE,
		hop_count: 0,
		source_group: "10-backend-group",
		target_group: "20-frontend-group",
		request_type: "query",
		...overrides,
	};
}

export function responseEnvelope(overrides: Partial<ResponseEnvelope> = {}): ResponseEnvelope {
	return { kind: "response", trace_id: TRACE, source_group: "20-frontend-group", status: "success", ...overrides };
}

export const REGISTRY_TEXT = `communication:
  max_hops: 5
  timeout_seconds: 30
  retry_attempts: 3
groups:
  10-backend-group:
    description: Designs the database and the API
  20-frontend-group:
    folder: skills/20-frontend-group
  30-devops-group: {}
  40-security-group: {}
`;

export function seedRegistry(text = REGISTRY_TEXT): Registry {
	const registry = parseRegistry(text);
	expect(registry.errors).toEqual([]);
	return registry;
}

/**
 * Text of any Unicode code points (no lone surrogates: a UTF-8 file cannot hold them). Built by hand
 * because fast-check's `unit: "binary"` takes seconds to warm up.
 */
export function anyUnicodeString(maxLength: number): fc.Arbitrary<string> {
	const codePoint = fc
		.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0x10ffff }))
		.filter((c) => c < 0xd800 || c > 0xdfff)
		.map((c) => String.fromCodePoint(c));
	return fc.array(codePoint, { maxLength }).map((chars) => chars.join(""));
}
