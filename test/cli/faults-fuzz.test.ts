import fc from "fast-check";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { NodeVault } from "../../node/node-vault";
import { readFrontmatter, splitNote } from "../../src/core/frontmatter";
import { ignoreReason } from "../../src/core/ignore";
import { isMessagePath } from "../../src/core/message-parse";
import { isAcceptableMessageId } from "../../src/core/ids";
import { readRawMessage } from "../../src/core/message-parse";
import type { ReadResult } from "../../src/core/message-parse";
import { basename } from "../../src/core/paths";
import { unquarantineText } from "../../src/core/stamps";
import { Router } from "../../src/router/router";
import type { ReadOptions, VaultPort } from "../../src/router/vault-port";
import { FUZZ_REGISTRY, OUTSIDE_GROUP_FOLDER, fileName, fuzzBox, marker, outboxNote } from "../helpers/generators";
import type { GeneratedNote } from "../helpers/generators";
import { MemoryVault } from "../helpers/memory-vault";

// Bad input at volume: thousands of generated outbox notes (valid requests and responses mixed with
// every kind of broken, hostile and huge content, see test/helpers/generators.ts) through the real
// Router, over the in-memory port (the bulk) and over NodeVault on a real temp folder (a share).
// After each batch: no exception escaped pass(); every note is in exactly one place (found by the
// unique marker in its file name); its content is intact; nothing was written outside the A2A root
// and the registry's group folders; no message id was delivered twice.

const RUNS = Number(process.env.A2A_FUZZ_RUNS ?? 20);
const BATCH = Number(process.env.A2A_FUZZ_BATCH ?? 500);
const DISK_RUNS = Number(process.env.A2A_FUZZ_DISK_RUNS ?? 2);
const DISK_BATCH = Number(process.env.A2A_FUZZ_DISK_BATCH ?? 300);
const BYTES_NOTES = Number(process.env.A2A_FUZZ_BYTES ?? 200);
const SHRINK = process.env.A2A_FUZZ_SHRINK === "1";
const T0 = Date.parse("2026-03-01T12:00:00.000Z");
const DAY = 24 * 3600 * 1000;

/**
 * Fields the router writes whatever they held; every other field that had a value must come through
 * unchanged (the router only fills in absent ones: message_id when not a usable id, created, kind,
 * target_group, in_reply_to, processing_time_ms).
 */
const ROUTER_FIELDS = new Set(["state", "delivered_at", "expires_at", "attempt", "answered_at", "dead_at", "route", "error_code", "error_message"]);

const outcomes = new Map<string, number>();
const kinds = new Map<string, number>();
const phaseMs = { write: 0, route: 0, verify: 0 };
let notesTotal = 0;
let diskNotes = 0;
const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

afterAll(() => {
	const sorted = (m: Map<string, number>) => Object.fromEntries([...m].sort((a, b) => b[1] - a[1]));
	console.log(`[faults-fuzz] ${notesTotal} generated notes routed (${diskNotes} of them through NodeVault on disk)`);
	console.log("[faults-fuzz] outcomes:", JSON.stringify(sorted(outcomes)));
	console.log("[faults-fuzz] input kinds:", JSON.stringify(sorted(kinds)));
	console.log("[faults-fuzz] wall time (ms):", JSON.stringify(Object.fromEntries(Object.entries(phaseMs).map(([k, v]) => [k, Math.round(v)]))));
});

interface Placed {
	note: GeneratedNote;
	mark: string;
	path: string;
	/** The text as the router can read it (for NodeVault: the file read back as UTF-8). */
	original: string;
}

const allowed = (p: string) => p.startsWith("A2A/") || p.startsWith(`${OUTSIDE_GROUP_FOLDER}/`);

function boxOf(p: string): { group: string; box: string } | null {
	const m = /^(?:A2A\/groups\/([^/]+)|skills\/(50-ml-group))\/(inbox|outbox|archive)\/(?:\d{4}-\d{2}\/)?[^/]+$/.exec(p);
	return m ? { group: m[1] ?? m[2], box: m[3] } : null;
}

/** Fails the test with a message built only when it fails (these checks run for every note). */
function check(ok: boolean, message: () => string): void {
	if (!ok) expect.fail(message());
}

/** Checks one finished batch: `files` is every file of the vault (path -> text). */
function verify(placed: Placed[], files: Map<string, string>, writes: string[]): void {
	for (const p of [...files.keys(), ...writes]) check(allowed(p), () => `written outside A2A and the group folders: ${p}`);
	expect(({} as Record<string, unknown>).polluted, "prototype pollution").toBeUndefined();
	const byMark = new Map<string, string[]>();
	for (const p of files.keys()) {
		for (const m of basename(p).matchAll(/FZ\d+x\d+Q/g)) {
			const list = byMark.get(m[0]);
			if (list) list.push(p);
			else byMark.set(m[0], [p]);
		}
	}
	const delivered = new Map<string, string[]>();
	for (const item of placed) {
		const hits = byMark.get(item.mark) ?? [];
		const where = () => `${item.note.content.kind} note ${JSON.stringify(item.path)}\n--- original ---\n${item.original.slice(0, 600)}`;
		// A note over the size limit is one place in two files: itself as it was (`.oversize`) and its dead letter beside it.
		const kept = hits.find((h) => h.startsWith("A2A/dead-letter/") && h.endsWith(".oversize"));
		if (kept !== undefined && hits.length === 2) {
			const deadLetter = hits.find((h) => h !== kept) as string;
			const fm = readFrontmatter(files.get(deadLetter) as string);
			check(deadLetter.endsWith(".dead.md") && !kept.includes("/", "A2A/dead-letter/".length) && fm?.state === "dead" && fm.error_code === "INVALID_MESSAGE" && fm.original_file === kept, () => `bad dead letter ${deadLetter} of an oversize note: ${where()}`);
			check(files.get(kept) === item.original, () => `oversize note not kept as it was: ${where()}`);
			count(outcomes, "dead-letter INVALID_MESSAGE oversize");
			count(kinds, item.note.content.kind);
			continue;
		}
		check(hits.length === 1, () => `${hits.length} places (${hits.join(", ")}) instead of exactly one for ${where()}`);
		const [hit] = hits;
		const finalText = files.get(hit) as string;
		const box = boxOf(hit);
		let outcome: string;
		if (box?.box === "outbox") {
			// Left in its outbox: only when rule 1 ignores it or it is empty (a draft), and then untouched.
			check(ignoreReason(hit) !== null || !isMessagePath(hit) || finalText.trim() === "", () => `left in the outbox without being ignored: ${where()}`);
			check(hit === item.path && finalText === item.original, () => `ignored note moved or changed: ${where()}`);
			outcome = "ignored";
		} else {
			check(item.note.name.ignored === undefined, () => `an ignored name was routed: ${where()}\n-> ${hit}`);
			const after = readRawMessage(finalText, hit);
			check(after.ok && after.raw.format === "flat", () => `routed note does not read as a flat note: ${where()}\n--- now ---\n${finalText.slice(0, 600)}`);
			const fm = after.ok ? after.raw.fields : null;
			if (box?.box === "inbox") outcome = fm?.kind === "response" ? "answered (response in inbox)" : `delivered (${String(fm?.state)})`;
			else if (box?.box === "archive") outcome = "archived (answered request)";
			else if (hit.startsWith("A2A/dead-letter/")) outcome = `dead-letter ${String(fm?.error_code)}${fm?.quarantined === true ? " quarantined" : ""}`;
			else throw new Error(`note ended in an unexpected place ${hit}: ${where()}`);
			checkContent(item, hit, finalText, after, where);
			// Delivered copies: in an inbox or archive, or a request that timed out after delivery.
			if (fm && typeof fm.message_id === "string" && (box !== null || fm.state === "timed_out")) {
				const list = delivered.get(fm.message_id);
				if (list) list.push(hit);
				else delivered.set(fm.message_id, [hit]);
			}
		}
		count(outcomes, outcome);
		count(kinds, item.note.content.kind);
	}
	for (const [id, paths] of delivered) check(paths.length === 1, () => `message_id ${id} delivered more than once: ${paths.join(", ")}`);
	// Router-written responses are well-formed notes in an inbox.
	for (const [p, t] of files) {
		if (!/\/inbox\/(error|timeout)-[^/]*\.md$/.test(p) || /FZ\d+x\d+Q/.test(basename(p))) continue;
		const fm = readFrontmatter(t);
		check(fm?.kind === "response" && typeof fm.source_group === "string" && typeof fm.target_group === "string", () => `bad router response ${p}:\n${t}`);
		count(outcomes, `router response (${String(fm?.status)})`);
	}
}

function checkContent(item: Placed, hit: string, finalText: string, after: ReadResult, where: () => string): void {
	if (!after.ok) return;
	const fm = after.raw.fields;
	const before = readRawMessage(item.original, item.path);
	const routerQuarantined = fm.quarantined === true && !(before.ok && before.raw.fields.quarantined === true);
	if (routerQuarantined || !before.ok) {
		// Unreadable: kept byte for byte below the router's block.
		check(routerQuarantined, () => `unreadable note not quarantined: ${where()}\n--- now ---\n${finalText.slice(0, 600)}`);
		check(unquarantineText(finalText) === item.original, () => `quarantined text differs: ${where()}`);
		return;
	}
	if (before.raw.format === "flat") {
		// Only the frontmatter is rewritten: the body is the same, byte for byte (BOM kept too).
		const a = splitNote(item.original);
		const b = splitNote(finalText);
		check(b.body === a.body && b.bom === a.bom, () => `body changed: ${where()}\n--- now ---\n${finalText.slice(0, 600)}`);
	}
	if (!isDeepStrictEqual(after.raw.payload, before.raw.payload)) expect(after.raw.payload, `payload changed: ${where()}`).toEqual(before.raw.payload);
	for (const [key, value] of Object.entries(before.raw.fields)) {
		if (ROUTER_FIELDS.has(key) || value === null || value === undefined || (key === "created" && value === "")) continue;
		if (key === "message_id" && !isAcceptableMessageId(value)) continue;
		if (!isDeepStrictEqual(after.raw.fields[key], value)) expect(after.raw.fields[key], `field ${key} changed: ${where()}`).toEqual(value);
	}
}

interface Harness {
	port: VaultPort;
	write(p: string, text: string): Promise<string>;
	snapshot(): Promise<Map<string, string>>;
	writes(): string[];
}

/**
 * The harness's port, except that one outbox note in thirteen is swapped for another text right
 * after the router first read it (item 2 of "Trust the post office"): the router must deliver only
 * what it validated, and route the new text as what it is. The new text becomes the note's original.
 */
function swapping(h: Harness, placed: Placed[]): VaultPort {
	const done = new Set<string>();
	return new Proxy(h.port, {
		get(target, prop, receiver) {
			const value = Reflect.get(target, prop, receiver) as unknown;
			if (prop !== "read" || typeof value !== "function") return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
			return async (p: string, options?: ReadOptions) => {
				const read = await (value as VaultPort["read"]).call(target, p, options);
				const index = placed.findIndex((item) => item.path === p);
				if (read && index >= 0 && index % 13 === 4 && !done.has(p)) {
					done.add(p);
					const other = placed[(index + 1) % placed.length].note.content.text;
					placed[index].original = await h.write(p, `${other}\n<!-- swapped in while it was routed -->\n`);
				}
				return read;
			};
		},
	});
}

async function routeBatch(h: Harness, notes: GeneratedNote[], run: number, extraPasses: number, setNow: (t: number) => void): Promise<Placed[]> {
	const placed: Placed[] = [];
	const registry = await h.write("A2A/registry.yaml", FUZZ_REGISTRY);
	expect(registry).toBe(FUZZ_REGISTRY);
	const put = async (from: number, to: number) => {
		const t0 = performance.now();
		for (let i = from; i < to; i++) {
			const note = notes[i];
			const mark = marker(run, i);
			const p = `${fuzzBox(note.group, "outbox")}/${fileName(note.name, mark, note.content.ext)}`;
			placed.push({ note, mark, path: p, original: await h.write(p, note.content.text) });
		}
		phaseMs.write += performance.now() - t0;
	};
	let now = T0;
	setNow(now);
	const router = new Router(swapping(h, placed), { clock: () => now });
	await router.loadRegistry();
	const half = Math.floor(notes.length / 2);
	await put(0, half);
	await router.indexSync.rescan();
	const pass = async () => {
		const t0 = performance.now();
		try {
			const report = await router.pass();
			expect(report.busy).toBe(false);
			// A step that failed is reported and skipped (the pass goes on): none may fail here.
			expect(report.failures).toEqual([]);
			for (const d of report.decisions) expect(allowed(d.path), `decision path outside: ${d.path}`).toBe(true);
		} catch (error) {
			throw new Error(`an exception escaped Router.pass(): ${(error as Error).stack ?? String(error)}`);
		} finally {
			phaseMs.route += performance.now() - t0;
		}
	};
	await pass();
	await put(half, notes.length);
	now += 1000;
	setNow(now);
	await router.indexSync.rescan();
	await pass();
	// Later passes: timeouts come due, requests are retried, then dead-lettered with TIMEOUT.
	for (let i = 0; i < extraPasses; i++) {
		now += (i + 1) * DAY;
		setNow(now);
		await pass();
	}
	// A note swapped while it was routed stays for the next pass, which routes what it now is.
	await pass();
	const t0 = performance.now();
	verify(placed, await h.snapshot(), h.writes());
	phaseMs.verify += performance.now() - t0;
	return placed;
}

let runCounter = 0;

/** FUZZ_SEED (and FUZZ_PATH) replay a failure that briefReporter printed. */
const REPLAY = process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED), path: process.env.FUZZ_PATH } : {};

/** Reports a failure with its seed and the assertion, without printing 500 generated notes. */
function briefReporter<T>(details: fc.RunDetails<T>): void {
	if (!details.failed) return;
	const cause = details.errorInstance instanceof Error ? (details.errorInstance.stack ?? details.errorInstance.message) : String(details.errorInstance);
	throw new Error(`property failed (seed ${details.seed}, path "${details.counterexamplePath}"; replay with { seed, path }):\n${cause}`);
}

describe("bad input at volume", () => {
	it(`routes ${RUNS} x ${BATCH} generated notes over the in-memory port: nothing lost, nothing twice, nothing outside`, async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(outboxNote, { minLength: BATCH, maxLength: BATCH }), fc.integer({ min: 0, max: 6 }), async (notes, extraPasses) => {
				const run = ++runCounter;
				let now = T0;
				const vault = new MemoryVault(() => now);
				const h: Harness = {
					port: vault,
					write: (p, text) => {
						vault.writeRaw(p, text);
						return Promise.resolve(text);
					},
					snapshot: () => Promise.resolve(new Map([...vault.files].map(([k, e]) => [k, e.text]))),
					writes: () => vault.writes,
				};
				await routeBatch(h, notes, run, extraPasses, (t) => (now = t));
				notesTotal += notes.length;
			}),
			{ numRuns: RUNS, endOnFailure: !SHRINK, reporter: briefReporter, ...REPLAY },
		);
		expect(notesTotal).toBeGreaterThanOrEqual(RUNS * BATCH);
	}, 240_000);

	it(`routes ${DISK_RUNS} x ${DISK_BATCH} generated notes through NodeVault on a real folder, writing nothing beside the vault`, async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(outboxNote, { minLength: DISK_BATCH, maxLength: DISK_BATCH }), fc.integer({ min: 0, max: 5 }), async (notes, extraPasses) => {
				const run = ++runCounter;
				const parent = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-fuzz-"));
				const dir = path.join(parent, "vault");
				await fs.mkdir(dir);
				try {
					const h: Harness = {
						port: new NodeVault(dir),
						async write(p, text) {
							const full = path.join(dir, ...p.split("/"));
							await fs.mkdir(path.dirname(full), { recursive: true });
							await fs.writeFile(full, text, "utf8");
							return fs.readFile(full, "utf8");
						},
						async snapshot() {
							const out = new Map<string, string>();
							const walk = async (d: string) => {
								for (const e of await fs.readdir(d, { withFileTypes: true })) {
									const full = path.join(d, e.name);
									if (e.isDirectory()) await walk(full);
									else out.set(path.relative(dir, full).split(path.sep).join("/"), await fs.readFile(full, "utf8"));
								}
							};
							await walk(dir);
							return out;
						},
						writes: () => [],
					};
					// NodeVault uses the real clock for file times; the router's clock is what the test sets.
					await routeBatch(h, notes, run, extraPasses, () => undefined);
					expect(await fs.readdir(parent)).toEqual(["vault"]);
					notesTotal += notes.length;
					diskNotes += notes.length;
				} finally {
					await fs.rm(parent, { recursive: true, force: true });
				}
			}),
			{ numRuns: DISK_RUNS, endOnFailure: !SHRINK, reporter: briefReporter, ...REPLAY },
		);
		expect(diskNotes).toBeGreaterThanOrEqual(Math.min(500, DISK_RUNS * DISK_BATCH));
	}, 120_000);

	it(`keeps the bytes of ${BYTES_NOTES} notes that are not valid UTF-8 (binary files, Latin-1 bodies) through NodeVault`, async () => {
		const header = (group: string, i: number) =>
			`---\nmessage_id: bytes-${i}\ntrace_id: 11111111-1111-4111-8111-${String(i).padStart(12, "0")}\nhop_count: 0\nsource_group: ${group}\ntarget_group: 20-frontend-group\nrequest_type: query\n---\n\n## Question\n\n`;
		const note = fc.record({
			group: fc.constantFrom("10-backend-group", "30-devops-group"),
			withHeader: fc.boolean(),
			// Bytes that are mostly not UTF-8: Latin-1 letters, lone continuation bytes, 0xFF, NUL.
			bytes: fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Uint8Array.from(b, (x, i) => (i % 7 === 0 ? 0xe9 : x))),
		});
		await fc.assert(
			fc.asyncProperty(fc.array(note, { minLength: BYTES_NOTES, maxLength: BYTES_NOTES }), async (notes) => {
				const parent = await fs.mkdtemp(path.join(os.tmpdir(), "a2a-bytes-"));
				const dir = path.join(parent, "vault");
				try {
					await fs.mkdir(path.join(dir, "A2A"), { recursive: true });
					await fs.writeFile(path.join(dir, "A2A/registry.yaml"), FUZZ_REGISTRY);
					const originals: { mark: string; bytes: Buffer; body: Buffer; withHeader: boolean }[] = [];
					for (const [i, n] of notes.entries()) {
						const mark = marker(999, i);
						const head = n.withHeader ? Buffer.from(header(n.group, i), "utf8") : Buffer.alloc(0);
						const bytes = Buffer.concat([head, Buffer.from(n.bytes), Buffer.from("\n")]);
						const rel = `${fuzzBox(n.group, "outbox")}/${mark}.md`;
						await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
						await fs.writeFile(path.join(dir, rel), bytes);
						originals.push({ mark, bytes, body: bytes.subarray(head.length), withHeader: n.withHeader });
					}
					const router = new Router(new NodeVault(dir), { clock: () => T0 });
					await router.loadRegistry();
					await router.indexSync.rescan();
					await router.pass();
					const all = new Map<string, Buffer>();
					const walk = async (d: string) => {
						for (const e of await fs.readdir(d, { withFileTypes: true })) {
							const full = path.join(d, e.name);
							if (e.isDirectory()) await walk(full);
							else all.set(path.relative(dir, full).split(path.sep).join("/"), await fs.readFile(full));
						}
					};
					await walk(dir);
					expect(await fs.readdir(parent)).toEqual(["vault"]);
					for (const o of originals) {
						const hits = [...all.keys()].filter((k) => basename(k).includes(o.mark));
						check(hits.length === 1, () => `${o.mark}: ${hits.length} places`);
						const final = all.get(hits[0]) as Buffer;
						const fm = readFrontmatter(final.toString("utf8")) ?? {};
						if (fm.quarantined === true) {
							// The router's block, then the original bytes, every one of them.
							check(final.subarray(final.length - o.bytes.length).equals(o.bytes), () => `${o.mark}: quarantined bytes changed`);
							count(outcomes, "non-UTF-8: quarantined, bytes kept");
						} else {
							check(o.withHeader, () => `${o.mark}: a note without frontmatter was not quarantined`);
							// Only the frontmatter was rewritten: the body's bytes are the original ones.
							check(final.subarray(final.length - o.body.length).equals(o.body), () => `${o.mark}: body bytes changed in ${hits[0]}`);
							count(outcomes, `non-UTF-8: ${hits[0].includes("/inbox/") ? "delivered" : "dead-letter"}, body bytes kept`);
						}
					}
					notesTotal += notes.length;
					diskNotes += notes.length;
				} finally {
					await fs.rm(parent, { recursive: true, force: true });
				}
			}),
			{ numRuns: 1, endOnFailure: !SHRINK, reporter: briefReporter, ...REPLAY },
		);
	}, 60_000);
});
