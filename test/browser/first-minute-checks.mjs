// The browser test's first minute, settings and modals, on the production main.js (run by
// run-browser-test.mjs with its context, check and assert helpers): a newcomer's vault without an
// A2A folder, walked through from the sidebar alone (create the folders, an agent, a first
// message), each step screenshotted in test-results/walkthrough-*.png; the settings' headings in
// the order people set up, the Edit group modal, and the tap targets of the modals and the
// settings at a phone's width (390 px).
import { statSync } from "node:fs";
import { join } from "node:path";

export const MIN_TAP_PX = 44;
export const PHONE_WIDTH = 390;
/** An ISO 8601 date-time in text a person reads (the UI shows relative or local times instead). */
export const RAW_ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** The smallest side of every visible tap target under the elements `roots` selects. */
export function tapTargets(on, roots) {
	return on.evaluate((sel) => {
		const targets = Array.from(document.querySelectorAll(sel))
			.flatMap((root) => Array.from(root.querySelectorAll("a.a2a-note-link, button, select, input:not([type=checkbox]), textarea, summary, [role='button'], .clickable-icon, .checkbox-container")))
			.filter((el) => el.getClientRects().length > 0);
		const sized = targets.map((el) => {
			const r = el.getBoundingClientRect();
			return { el, side: Math.min(r.height, r.width), size: `${r.width.toFixed(1)}×${r.height.toFixed(1)}px` };
		});
		sized.sort((a, b) => a.side - b.side);
		return {
			min: sized[0]?.side ?? 0,
			count: sized.length,
			smallest: sized.slice(0, 4).map(({ el, size }) => `${el.tagName.toLowerCase()}.${Array.from(el.classList).join(".")} "${(el.textContent ?? el.getAttribute("aria-label") ?? "").trim().slice(0, 20)}" ${size}`),
		};
	}, roots);
}

/** The visible text under `selector` (innerText: what is drawn, not what is hidden). */
export function visibleText(on, selector) {
	return on.evaluate((sel) => Array.from(document.querySelectorAll(sel)).map((el) => el.innerText).join("\n"), selector);
}

export async function runFirstMinuteChecks({ context, url, check, assert, assertEqual, results, themeChecks, setTheme, pageErrors }) {
	const page = await context.newPage();
	page.on("pageerror", (error) => pageErrors.push(String(error?.stack ?? error)));
	await page.setViewportSize({ width: 420, height: 900 });
	await page.goto(`${url}?vault=empty`);
	const shot = async (name, locator) => {
		const file = join(results, name);
		if (locator) await locator.screenshot({ path: file });
		else await page.screenshot({ path: file, fullPage: true });
		assert(statSync(file).size > 5_000, `${name} is suspiciously small`);
	};
	const settle = () => page.evaluate(() => window.a2a.settle());
	const card = () =>
		page.evaluate(() => {
			const view = document.querySelector(".a2a-status-view");
			const shown = (el) => !!el && el.getClientRects().length > 0;
			return {
				shown: shown(view?.querySelector(".a2a-welcome")),
				buttons: Array.from(view?.querySelectorAll("button") ?? []).filter(shown).map((b) => b.textContent),
				steps: Array.from(view?.querySelectorAll(".a2a-welcome-step") ?? []).map((li) => `${li.getAttribute("data-step")}=${li.getAttribute("data-done")}`),
				flow: shown(view?.querySelector(".a2a-flow")),
			};
		});
	const openModal = () => page.evaluate(() => document.querySelector(".modal-container .a2a-modal .modal-title")?.textContent ?? null);
	const fill = (name, value) =>
		page.evaluate(
			([n, v]) => {
				const el = document.querySelector(`.a2a-modal [name="${n}"]`);
				el.value = v;
				el.dispatchEvent(new Event("input", { bubbles: true }));
			},
			[name, value],
		);
	const submit = async () => {
		await page.evaluate(() => {
			// A suggestion list left open would cover the modal in the screenshot after it.
			for (const el of Array.from(document.querySelectorAll(".suggestion-container"))) el.remove();
			document.querySelector(".a2a-modal button.mod-cta")?.click();
		});
		await page.evaluate(() => window.a2a.host.fakeApp.workspace.trigger("resize"));
		await settle();
	};

	const ready = await page.evaluate(() => window.a2aReady);
	await check(`first minute, empty vault: no notice, one welcome card with one button, no empty flow (screenshots test-results/walkthrough-1-welcome-{light,dark,phone}.png, welcome-card-{light,dark}.png)`, async () => {
		assertEqual(ready, "ok", "page start");
		assertEqual(await page.evaluate(() => window.a2a.host.notices), [], "notices");
		const shown = await card();
		assertEqual(shown, { shown: true, buttons: ["Create the A2A folders"], steps: ["folders=false", "agent=false", "message=false"], flow: false }, "the sidebar");
		const text = await visibleText(page, ".a2a-status-view");
		assert(!/registry\.yaml|a2a init|`/.test(text), `the sidebar speaks of files or the command line: ${text}`);
		for (const theme of ["light", "dark"]) {
			await setTheme(page, theme);
			await shot(`walkthrough-1-welcome-${theme}.png`);
			// The card alone: the README's picture (npm run screenshots).
			await shot(`welcome-card-${theme}.png`, page.locator(".a2a-welcome"));
		}
		await setTheme(page, "light");
		await page.setViewportSize({ width: PHONE_WIDTH, height: 800 });
		await page.evaluate(() => document.body.classList.add("is-phone"));
		const targets = await tapTargets(page, ".a2a-status-view");
		await shot("walkthrough-1-welcome-phone.png");
		await page.evaluate(() => document.body.classList.remove("is-phone"));
		await page.setViewportSize({ width: 420, height: 900 });
		assert(targets.min >= MIN_TAP_PX, `smallest tap targets: ${targets.smallest.join("; ")}`);
		return shown.buttons.join(", ");
	});
	await themeChecks(page, "first minute (welcome card)", "welcome", { minKinds: 5, rows: false });

	await check("walk-through 2: the card's button creates the folders; the step is ticked and the button is the next step's (screenshot test-results/walkthrough-2-folders.png)", async () => {
		await page.evaluate(() => document.querySelector(".a2a-welcome button")?.click());
		await settle();
		await page.waitForFunction(() => document.querySelector('.a2a-welcome-step[data-step="folders"]')?.getAttribute("data-done") === "true");
		const shown = await card();
		assertEqual(shown.steps, ["folders=true", "agent=false", "message=false"], "steps");
		assertEqual(shown.buttons.filter((b) => b === "Create agent note…").length, 1, "the next step's button");
		const notice = await page.evaluate(() => window.a2a.host.notices.at(-1) ?? "");
		assert(/^A2A is ready: \d+ groups can send each other messages/.test(notice), `notice: ${notice}`);
		await shot("walkthrough-2-folders.png");
		return notice;
	});

	await check("walk-through 3: Create agent note… from the card, a name and a group; the step is ticked (screenshots test-results/walkthrough-3-agent-{modal,done}.png)", async () => {
		await page.evaluate(() => document.querySelector(".a2a-welcome button")?.click());
		await page.waitForFunction(() => !!document.querySelector(".a2a-modal"));
		assertEqual(await openModal(), "Create agent note", "modal");
		assertEqual(await page.evaluate(() => document.activeElement?.getAttribute("name")), "name", "focused field");
		await fill("name", "helper");
		await fill("role", "Answers questions about the API");
		await fill("group", "10-backend-group");
		await page.evaluate(() => Array.from(document.querySelectorAll(".suggestion-container")).forEach((el) => el.remove()));
		await shot("walkthrough-3-agent-modal.png");
		await submit();
		await page.waitForFunction(() => document.querySelector('.a2a-welcome-step[data-step="agent"]')?.getAttribute("data-done") === "true");
		const shown = await card();
		assertEqual(shown.steps, ["folders=true", "agent=true", "message=false"], "steps");
		assert(shown.buttons.includes("Compose message…"), `buttons: ${shown.buttons.join(", ")}`);
		await shot("walkthrough-3-agent-done.png");
	});

	await check("walk-through 4: Compose message… from the card focuses the first empty field; sent, the card is gone and the message leads its row with route and outcome (screenshots test-results/walkthrough-4-compose-{modal,sent}.png)", async () => {
		await page.evaluate(() => Array.from(document.querySelectorAll(".a2a-welcome button")).find((b) => b.textContent === "Compose message…")?.click());
		await page.waitForFunction(() => document.querySelector(".a2a-modal .modal-title")?.textContent === "Compose message");
		assertEqual(await page.evaluate(() => document.activeElement?.getAttribute("name")), "from", "focused field");
		await fill("from", "10-backend-group");
		await fill("to", "20-frontend-group");
		await fill("text", "Which fields does the sign-up form need?");
		await page.evaluate(() => Array.from(document.querySelectorAll(".suggestion-container")).forEach((el) => el.remove()));
		await shot("walkthrough-4-compose-modal.png");
		await submit();
		await page.waitForFunction(() => document.querySelector(".a2a-decision") !== null, null, { timeout: 10_000 });
		const shown = await card();
		assertEqual(shown.shown, false, "the welcome card after the first message");
		const row = await page.evaluate(() => {
			const d = document.querySelector(".a2a-decision");
			return { link: d?.querySelector(".a2a-decision-link")?.textContent, outcome: d?.querySelector(".a2a-outcome")?.textContent };
		});
		assertEqual(row, { link: "10-backend-group → 20-frontend-group · query", outcome: "delivered" }, "the first message's row");
		await shot("walkthrough-4-compose-sent.png");
		return `${row.link}: ${row.outcome}`;
	});

	await check(`settings: headings in the order people set up; the Groups editor's icon buttons and the Edit group modal (screenshots test-results/settings-{light,dark,phone}.png, edit-group.png); tap targets of ${MIN_TAP_PX} px on a phone`, async () => {
		// The walk-through's notices have said their piece: they would cover the settings' pictures.
		await page.evaluate(() => document.querySelector(".notice-container")?.replaceChildren());
		await page.evaluate(() => window.a2a.host.openSettings("a2a-relay"));
		await page.waitForFunction(() => document.querySelector(".a2a-group-row") !== null);
		const headings = await page.evaluate(() => Array.from(document.querySelectorAll(".a2a-settings .setting-item-heading .setting-item-name")).map((e) => e.textContent));
		assertEqual(headings, ["Groups", "Folders", "New messages", "Agents", "Notices", "Advanced"], "settings headings");
		const icons = await page.evaluate(() => Array.from(document.querySelector(".a2a-group-row")?.querySelectorAll(".clickable-icon") ?? []).map((b) => b.getAttribute("aria-label")));
		assertEqual(icons, ["Edit group 10-backend-group", "Remove group 10-backend-group"], "a group row's buttons");
		for (const theme of ["light", "dark"]) {
			await setTheme(page, theme);
			await shot(`settings-${theme}.png`, page.locator(".mod-settings .vertical-tab-content"));
		}
		await setTheme(page, "light");
		await page.setViewportSize({ width: PHONE_WIDTH, height: 800 });
		await page.evaluate(() => document.body.classList.add("is-phone"));
		const sideways = await page.evaluate(() => {
			const tab = document.querySelector(".mod-settings .vertical-tab-content");
			return tab ? tab.scrollWidth - tab.clientWidth : -1;
		});
		const settingsTargets = await tapTargets(page, ".a2a-settings");
		await shot("settings-phone.png", page.locator(".mod-settings .vertical-tab-content"));
		await page.evaluate(() => document.querySelector(".a2a-group-row .clickable-icon")?.click());
		await page.waitForFunction(() => document.querySelector(".a2a-modal .modal-title")?.textContent?.startsWith("Edit group"));
		const fields = await page.evaluate(() => Array.from(document.querySelectorAll(".a2a-modal .setting-item-name")).map((e) => e.textContent));
		assertEqual(fields, ["Group id", "Description", "Remote agent URL", "Token secret"], "Edit group's labelled fields");
		await fill("url", "not a url");
		await page.evaluate(() => document.querySelector(".a2a-modal button.mod-cta")?.click());
		await page.waitForFunction(() => document.querySelector('.a2a-modal [name="url"]')?.getAttribute("aria-invalid") === "true");
		const modalTargets = await tapTargets(page, ".a2a-modal");
		await shot("edit-group.png", page.locator(".a2a-modal"));
		await page.evaluate(() => {
			document.querySelector(".a2a-modal")?.closest(".modal-container")?.querySelector(".modal-close-button")?.click();
			window.a2a.host.closeSettings();
			document.body.classList.remove("is-phone");
		});
		await page.setViewportSize({ width: 420, height: 900 });
		assertEqual(sideways, 0, "the settings scroll sideways at 390 px by");
		assert(settingsTargets.count > 10 && settingsTargets.min >= MIN_TAP_PX, `settings: ${settingsTargets.count} targets, smallest ${settingsTargets.smallest.join("; ")}`);
		assert(modalTargets.count >= 5 && modalTargets.min >= MIN_TAP_PX, `Edit group: ${modalTargets.count} targets, smallest ${modalTargets.smallest.join("; ")}`);
		return `settings ${settingsTargets.count} targets, smallest ${settingsTargets.smallest[0]}; modal ${modalTargets.count}, smallest ${modalTargets.smallest[0]}`;
	});

	await check(`a modal at a phone's width: Compose's tap targets are at least ${MIN_TAP_PX} px (screenshot test-results/compose-phone.png)`, async () => {
		await page.setViewportSize({ width: PHONE_WIDTH, height: 800 });
		await page.evaluate(() => document.body.classList.add("is-phone"));
		await page.evaluate(() => window.a2a.host.executeCommand("a2a-relay:compose-message"));
		await page.waitForFunction(() => document.querySelector(".a2a-modal .modal-title")?.textContent === "Compose message");
		const targets = await tapTargets(page, ".a2a-modal");
		await shot("compose-phone.png");
		await page.evaluate(() => {
			document.querySelector(".a2a-modal")?.closest(".modal-container")?.querySelector(".modal-close-button")?.click();
			document.body.classList.remove("is-phone");
		});
		await page.setViewportSize({ width: 420, height: 900 });
		assert(targets.count >= 8 && targets.min >= MIN_TAP_PX, `Compose: ${targets.count} targets, smallest ${targets.smallest.join("; ")}`);
		return `${targets.count} targets, smallest ${targets.smallest[0]}`;
	});
	await page.close();
}
