import { setIcon } from "obsidian";
import { isStale } from "../../core/agent";
import type { AgentEntry } from "../../obsidian/agent-store";
import { absoluteTime, findingClock, relativeTime } from "../time-format";
import { setAttrIfChanged, setHidden, setTextIfChanged } from "./dom-text";
import { resultClass, statusClass, swapClass } from "./status-style";
import { VIEW_TEXT } from "../strings";

// One agent's row. Built once, then updated in place: each field is written only when its text
// changed, so an update leaves the rest of the row (and every other row) alone.

export interface RowClock {
	now: number;
	staleLimitMs: number;
}

function progressStep(progress: number): string {
	return `${Math.round(progress)}%`;
}

export class AgentRow {
	readonly el: HTMLElement;
	agent: AgentEntry;
	private readonly badgeEl: HTMLElement;
	private readonly toggleEl: HTMLElement;
	private readonly nameEl: HTMLElement;
	private readonly staleEl: HTMLElement;
	private readonly alertEl: HTMLElement;
	private readonly ageEl: HTMLElement;
	private readonly metaEl: HTMLElement;
	private readonly barEl: HTMLElement;
	private readonly fillEl: HTMLElement;
	private readonly percentEl: HTMLElement;
	private readonly actionEl: HTMLElement;
	private readonly resultEl: HTMLElement;
	private readonly errorEl: HTMLElement;
	private readonly warningEl: HTMLElement;
	private readonly findingEl: HTMLElement;
	private readonly findingTimeEl: HTMLElement;
	private readonly findingTextEl: HTMLElement;

	constructor(agent: AgentEntry, clock: RowClock) {
		this.agent = agent;
		const el = (this.el = createDiv({ cls: "a2a-agent-row", attr: { role: "listitem" } }));
		// The head is the compact row: status dot, name, stale marker, a thin progress bar and the
		// age; a click (or the toggle button) shows the rest. In the detailed list the bar takes
		// its own line (styles.css orders it).
		const head = el.createDiv({ cls: "a2a-agent-head" });
		this.badgeEl = head.createSpan({ cls: "a2a-badge" });
		this.nameEl = head.createEl("a", { cls: "a2a-agent-name a2a-note-link", attr: { href: "#", draggable: "true" } });
		this.staleEl = head.createSpan({ cls: "a2a-stale-marker a2a-hidden", text: VIEW_TEXT.stale });
		// What the details would tell, in one word, for the compact row (hidden while the details show).
		this.alertEl = head.createSpan({ cls: "a2a-alert-marker a2a-hidden" });
		const progress = head.createDiv({ cls: "a2a-agent-progress" });
		this.barEl = progress.createDiv({
			cls: "a2a-progress",
			attr: { role: "progressbar", "aria-valuemin": "0", "aria-valuemax": "100" },
		});
		this.fillEl = this.barEl.createDiv({ cls: "a2a-progress-fill" });
		this.percentEl = progress.createSpan({ cls: "a2a-progress-label" });
		this.ageEl = head.createEl("time", { cls: "a2a-agent-age" });
		this.toggleEl = head.createEl("button", { cls: "clickable-icon a2a-row-toggle", attr: { type: "button", "aria-expanded": "false", "data-row-toggle": "" } });
		setIcon(this.toggleEl, "chevron-right");
		this.metaEl = el.createDiv({ cls: "a2a-agent-meta" });
		this.actionEl = el.createDiv({ cls: "a2a-agent-action" });
		this.resultEl = el.createDiv({ cls: "a2a-agent-result" });
		this.errorEl = el.createDiv({ cls: "a2a-agent-error" });
		this.warningEl = el.createDiv({ cls: "a2a-agent-warning" });
		this.findingEl = el.createDiv({ cls: "a2a-agent-finding" });
		this.findingEl.createSpan({ cls: "a2a-field-label", text: VIEW_TEXT.latestFinding });
		this.findingTimeEl = this.findingEl.createSpan({ cls: "a2a-finding-time" });
		this.findingTextEl = this.findingEl.createSpan({ cls: "a2a-finding-action" });
		this.write(agent, clock);
	}

	update(agent: AgentEntry, clock: RowClock): void {
		this.agent = agent;
		this.write(agent, clock);
	}

	/** The clock moved on: refresh the age and the stale marker only. */
	tick(clock: RowClock): void {
		const a = this.agent;
		setTextIfChanged(this.ageEl, a.updatedAt === undefined ? "" : relativeTime(a.updatedAt, clock.now));
		const stale = isStale(a, clock.now, clock.staleLimitMs);
		setHidden(this.staleEl, !stale);
		if (this.el.classList.contains("a2a-is-stale") !== stale) this.el.toggleClass("a2a-is-stale", stale);
	}

	/** Opens or closes the details of a compact row. */
	setExpanded(expanded: boolean): void {
		this.el.toggleClass("a2a-expanded", expanded);
		this.toggleEl.setAttr("aria-expanded", String(expanded));
		setIcon(this.toggleEl, expanded ? "chevron-down" : "chevron-right");
	}

	get expanded(): boolean {
		return this.el.classList.contains("a2a-expanded");
	}

	isStale(clock: RowClock): boolean {
		return isStale(this.agent, clock.now, clock.staleLimitMs);
	}

	private write(a: AgentEntry, clock: RowClock): void {
		const el = this.el;
		setAttrIfChanged(el, "data-agent", a.name);
		setAttrIfChanged(el, "data-status", a.status);
		setAttrIfChanged(el, "data-path", a.path);
		swapClass(this.badgeEl, "a2a-status-", statusClass(a.status));
		setTextIfChanged(this.badgeEl, a.status);

		setTextIfChanged(this.nameEl, a.name);
		setAttrIfChanged(this.toggleEl, "aria-label", VIEW_TEXT.rowDetails(a.name));
		setAttrIfChanged(this.nameEl, "data-path", a.path);
		setAttrIfChanged(this.ageEl, "title", a.updatedAt === undefined ? null : absoluteTime(a.updatedAt));
		setAttrIfChanged(this.ageEl, "datetime", a.updatedAt === undefined ? null : new Date(a.updatedAt).toISOString());

		const meta = [a.role, a.group].filter((part): part is string => part !== undefined).join(" · ");
		setTextIfChanged(this.metaEl, meta);
		setHidden(this.metaEl, meta === "");

		this.writeProgress(a);

		setTextIfChanged(this.actionEl, a.lastAction ?? "");
		setHidden(this.actionEl, a.lastAction === undefined);

		const result = this.resultText(a);
		setTextIfChanged(this.resultEl, result);
		setHidden(this.resultEl, result === "");
		swapClass(this.resultEl, "a2a-result-", a.result === undefined ? "a2a-result-none" : resultClass(a.result));

		setTextIfChanged(this.errorEl, a.error === undefined ? "" : VIEW_TEXT.agentError(a.error));
		setHidden(this.errorEl, a.error === undefined);

		const warnings = [a.transitionWarning, ...a.notes].filter((w): w is string => w !== undefined && w !== "");
		setTextIfChanged(this.warningEl, warnings.length === 0 ? "" : VIEW_TEXT.agentWarnings(warnings));
		setHidden(this.warningEl, warnings.length === 0);
		const alert = a.error !== undefined ? VIEW_TEXT.errorMarker : warnings.length > 0 ? VIEW_TEXT.warningMarker : "";
		setTextIfChanged(this.alertEl, alert);
		setHidden(this.alertEl, alert === "");

		const finding = a.latestFinding;
		const findingTime = finding ? findingClock(finding.timestamp, clock.now) : null;
		setTextIfChanged(this.findingTimeEl, findingTime ? `${findingTime.text} · ` : "");
		setAttrIfChanged(this.findingTimeEl, "title", findingTime?.title ?? null);
		setTextIfChanged(this.findingTextEl, finding ? finding.action : "");
		setHidden(this.findingEl, finding === undefined);

		this.tick(clock);
	}

	private writeProgress(a: AgentEntry): void {
		const known = a.progress !== undefined;
		const value = known ? Math.round(a.progress as number) : 0;
		setAttrIfChanged(this.barEl, "aria-valuenow", known ? String(value) : null);
		setAttrIfChanged(this.barEl, "aria-label", VIEW_TEXT.progressOf(a.name));
		setAttrIfChanged(this.barEl, "aria-valuetext", known ? VIEW_TEXT.percent(value) : VIEW_TEXT.noProgress);
		swapClass(this.barEl, "a2a-status-", statusClass(a.status));
		if (this.barEl.classList.contains("a2a-progress-unknown") === known) this.barEl.toggleClass("a2a-progress-unknown", !known);
		const width = `${value}%`;
		if (this.fillEl.style.getPropertyValue("--a2a-progress") !== width) this.fillEl.setCssProps({ "--a2a-progress": width });
		setTextIfChanged(this.percentEl, known ? progressStep(a.progress as number) : "–");
	}

	private resultText(a: AgentEntry): string {
		const parts: string[] = [];
		if (a.result !== undefined) parts.push(VIEW_TEXT.result(a.result));
		if (a.sectionsPassed !== undefined || a.sectionsFailed !== undefined) {
			parts.push(VIEW_TEXT.sections(a.sectionsPassed ?? 0, a.sectionsFailed ?? 0, parts.length === 0));
		}
		return parts.join(" · ");
	}
}
