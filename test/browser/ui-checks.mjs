// The browser test's checks of the plugin's UI surfaces beyond the sidebar's rows, on the
// production main.js (run by run-browser-test.mjs with its page, check and assert helpers):
// the sidebar's header actions and a row's context menu, the reading-view header of a message,
// the trace as a Mermaid sequence diagram in the light and dark themes, and the tap targets at a
// phone's width. Screenshots go to test-results/.
import { statSync } from "node:fs";
import { join } from "node:path";

import { MIN_TAP_PX, PHONE_WIDTH, RAW_ISO } from "./first-minute-checks.mjs";

export async function runUiChecks({ page, check, assert, assertEqual, results }) {
	const setTheme = (theme) => page.evaluate((t) => document.body.classList.replace(t === "dark" ? "theme-light" : "theme-dark", `theme-${t}`), theme);
	const shot = async (name, locator) => {
		const file = join(results, name);
		if (locator) await locator.screenshot({ path: file });
		else await page.screenshot({ path: file, fullPage: true });
		assert(statSync(file).size > 5_000, `${name} is suspiciously small`);
	};

	await check("the sidebar's header has Compose message… and Route now; a decision's context menu offers opening and the message's actions (screenshot test-results/agent-status-actions.png)", async () => {
		const actions = await page.evaluate(() => window.a2aUi.headerActions());
		assertEqual(actions.slice().sort(), ["Compose message…", "Route now"], "header actions");
		const titles = await page.evaluate(() => window.a2aUi.openRowMenu());
		assert(titles.includes("Open in new tab") && titles.includes("Open to the right"), `menu: ${titles.join(", ")}`);
		assert(titles.includes("Show trace"), `menu: ${titles.join(", ")}`);
		await shot("agent-status-actions.png");
		await page.evaluate(() => window.a2aUi.closeMenu());
		return titles.join(", ");
	});

	const request = await page.evaluate(() => window.a2aUi.deliveredRequest());

	await check("a delivered message reads with a one-line header in reading view (screenshot test-results/message-header.png)", async () => {
		assert(request, "no delivered request in the vault");
		const header = await page.evaluate((path) => window.a2aUi.readingView(path), request);
		assert(/^Request: \w+/.test(header), `header: ${header}`);
		assert(header.includes("→") && header.includes("delivered"), `header: ${header}`);
		await page.evaluate(() => document.body.classList.add("a2a-show-reading"));
		await shot("message-header.png", page.locator(".fake-reading-view"));
		await page.evaluate(() => document.body.classList.remove("a2a-show-reading"));
		return header;
	});

	await check("a conversation on that trace: forwarded to a third group, answered, answered again", async () => {
		const delivered = await page.evaluate((path) => window.a2aUi.converse(path), request);
		assert(delivered >= 4, `${delivered} messages of the trace delivered`);
		return `${delivered} messages`;
	});
	const answered = await page.evaluate(() => {
		const files = window.a2a.host.fakeApp.vault.getFiles().map((f) => f.path);
		return files.find((p) => /^A2A\/groups\/[^/]+\/archive\//.test(p)) ?? null;
	});

	for (const theme of ["light", "dark"]) {
		await check(`Show trace draws the conversation as a sequence diagram in the ${theme} theme (screenshot test-results/trace-${theme}.png)`, async () => {
			await setTheme(theme);
			const drawn = theme === "light" ? await page.evaluate((path) => window.a2aUi.showTrace(path), answered ?? request) : null;
			if (theme === "dark") await page.evaluate(() => window.a2aUi.themeChanged());
			const info = await page.evaluate(() => {
				const el = document.querySelector('.workspace-leaf-content[data-type="a2a-trace"] .view-content');
				const svg = el?.querySelector(".mermaid svg");
				return { svg: !!svg, actors: svg?.querySelectorAll("rect.actor, .actor").length ?? 0, rows: el?.querySelectorAll(".a2a-trace-row").length ?? 0, background: svg ? getComputedStyle(el).backgroundColor : "" };
			});
			if (drawn) assert(drawn.rows >= 4, `trace rows: ${drawn.rows}`);
			assert(info.svg, "no diagram drawn");
			assert(info.actors >= 3, `lifelines: ${info.actors}`);
			await page.evaluate(() => document.querySelector('.workspace-leaf-content[data-type="a2a-trace"]')?.scrollIntoView());
			await shot(`trace-${theme}.png`, page.locator('.workspace-leaf-content[data-type="a2a-trace"]'));
			return `${info.rows} messages`;
		});
	}
	await setTheme("light");

	await check("the trace at sidebar width: the diagram keeps its natural size (text at least 10 px, scrolled sideways), a short id with a copy button, clock times in rows", async () => {
		const info = await page.evaluate(() => {
			const view = document.querySelector(".a2a-trace-view");
			const texts = Array.from(view?.querySelectorAll(".mermaid svg text") ?? []).map((t) => t.getBoundingClientRect().height).filter((h) => h > 0);
			const picture = view?.querySelector(".a2a-trace-diagram");
			return {
				smallest: Math.min(...texts),
				sideways: picture ? picture.scrollWidth > picture.clientWidth : false,
				summary: view?.querySelector(".a2a-trace-summary")?.textContent ?? "",
				copy: view?.querySelector(".a2a-copy-trace")?.getAttribute("aria-label") ?? null,
				times: Array.from(view?.querySelectorAll(".a2a-trace-row time") ?? []).map((t) => t.textContent),
			};
		});
		assert(info.smallest >= 10, `diagram text ${info.smallest.toFixed(1)} px high`);
		assert(/^Conversation [0-9a-f]{8}… · \d+ messages$/.test(info.summary), `summary: ${info.summary}`);
		assertEqual(info.copy, "Copy the full trace id", "copy button");
		assert(info.times.length >= 4 && info.times.every((t) => /^\d{1,2}:\d{2}:\d{2}( [AP]M)?$/.test(t ?? "")), `row times: ${info.times.join(", ")}`);
		return `text ${info.smallest.toFixed(1)} px, ${info.sideways ? "scrolls sideways" : "fits"}, ${info.summary}`;
	});

	await check("no raw ISO time in the trace view's visible text", async () => {
		const text = await page.evaluate(() => Array.from(document.querySelectorAll(".a2a-trace-view")).map((el) => el.innerText).join("\n"));
		const found = RAW_ISO.exec(text);
		assert(text.length > 50, "the trace view shows no text");
		assert(!found, `raw ISO time "${found?.[0]}" in: ${text.slice(Math.max(0, (found?.index ?? 0) - 80), (found?.index ?? 0) + 40)}`);
	});

	await check(`phone width (${PHONE_WIDTH} px, .is-phone): every tap target of the sidebar and the trace is at least ${MIN_TAP_PX} px high and wide (screenshot test-results/agent-status-phone-targets.png)`, async () => {
		// A note with a one-letter name, rejected: its decision's and its dead letter's links are
		// narrower than a finger unless the style widens them.
		await page.evaluate(async () => {
			await window.a2a.externalWrite("A2A/groups/40-security-group/outbox/q.md", `---\ntrace_id: "f6a7b8c9-d0e1-4234-8f01-678901234567"\nhop_count: 0\nsource_group: "40-security-group"\ntarget_group: "99-nowhere"\nrequest_type: "query"\n---\n## Question\nq?\n`);
			await window.a2a.settle();
		});
		const q = await page.evaluate(() => window.a2a.host.fakeApp.vault.getFiles().map((f) => f.path).find((p) => p === "A2A/dead-letter/q.md") ?? null);
		assert(q, "q.md is not in the dead-letter folder");
		await page.evaluate((path) => window.a2aUi.showTrace(path), q);
		const short = await page.evaluate(() => Array.from(document.querySelectorAll(".a2a-status-view a.a2a-note-link, .a2a-trace-view a.a2a-note-link")).filter((a) => a.getAttribute("data-name") === "q.md" || /\/q\.md$/.test(a.getAttribute("data-path") ?? "") || /^q(\.md)?$/.test(a.textContent ?? "")).length);
		assert(short >= 3, `${short} links to q.md in the sidebar and the trace`);
		await page.setViewportSize({ width: PHONE_WIDTH, height: 800 });
		await page.evaluate(() => document.body.classList.add("is-phone"));
		await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
		const targets = await page.evaluate(() => window.a2aUi.tapTargets());
		await shot("agent-status-phone-targets.png");
		await page.evaluate(() => document.body.classList.remove("is-phone"));
		await page.setViewportSize({ width: 420, height: 900 });
		assert(targets.count > 10, `only ${targets.count} tap targets measured`);
		assert(targets.min >= MIN_TAP_PX, `smallest tap targets: ${targets.smallest.join("; ")}`);
		return `${targets.count} targets, smallest ${targets.smallest.slice(0, 2).join("; ")}`;
	});
}
