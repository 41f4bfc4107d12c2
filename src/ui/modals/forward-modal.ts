import type { App } from "obsidian";
import { planForward } from "../../actions/forward";
import type { ForwardWarning } from "../../actions/forward";
import type { ActionVault } from "../../actions/vault";
import { writePlannedNote } from "../../actions/write-note";
import type { RequestMessage } from "../../core/message";
import type { ActiveInboxRequest } from "../../obsidian/active-note";
import type { RelayState } from "../../obsidian/relay-state";
import { gatewayGroup } from "../../core/registry";
import { GroupSuggest } from "../suggest/group-suggest";
import type { ComposedMessages } from "../../obsidian/composed-messages";
import { announceWritten, messageIdOf } from "../notices/message-notice";
import { FORM_TEXT, NOTICE_TEXT } from "../strings";
import { FormModal } from "./form";

// Forward message: the group to delegate to and a note for it. When the router would reject the
// forward (hop limit, cycle) the modal says so and why before anything is written; submitting
// again writes it anyway, Escape cancels.

export class ForwardModal extends FormModal {
	private warningEl: HTMLElement | null = null;
	/** The warning the user has seen and may confirm (its target and code). */
	private shownWarning: string | null = null;

	constructor(
		app: App,
		private readonly state: RelayState,
		private readonly vault: Pick<ActionVault, "create">,
		private readonly target: ActiveInboxRequest,
		private readonly original: RequestMessage,
		private readonly composed: ComposedMessages,
	) {
		super(app);
		this.setTitle(FORM_TEXT.forward.title);
	}

	protected submitLabel(): string {
		return this.shownWarning ? FORM_TEXT.forward.submitAnyway : FORM_TEXT.forward.submit;
	}

	protected build(el: HTMLElement): void {
		const env = this.original.envelope;
		el.createEl("p", {
			cls: "a2a-modal-summary",
			text: FORM_TEXT.forward.summary(this.target.group, env.request_type, env.source_group, env.hop_count + 1, env.trace_id),
		});
		const to = this.text(el, "to", FORM_TEXT.forward.to, { placeholder: FORM_TEXT.forward.toPlaceholder });
		new GroupSuggest(this.app, to.control as HTMLInputElement, () =>
			[...this.state.registry().groups.values()].filter((g) => g.id !== this.target.group && g.id !== gatewayGroup(this.state.registry()) && this.state.layout().hasGroup(g.id)),
		);
		to.control.addEventListener("input", () => this.preview());
		this.textArea(el, "note", FORM_TEXT.forward.note, { rows: 3, desc: FORM_TEXT.forward.noteDesc });
		this.warningEl = el.createDiv({ cls: "a2a-forward-warning", attr: { role: "alert", "aria-live": "polite" } });
	}

	private plan() {
		return planForward(this.state.routing(Date.now()), this.original, this.target.group, this.field("to").value(), this.field("note").value());
	}

	/** Shows, as the target is typed, what the router would say about it. */
	private preview(): void {
		const planned = this.plan();
		this.showWarning(planned.ok ? planned.warning : null, planned.ok ? this.field("to").value().trim() : null);
	}

	private showWarning(warning: ForwardWarning | null, to: string | null): void {
		if (!this.warningEl) return;
		this.warningEl.empty();
		const key = warning && to !== null ? `${to}|${warning.code}` : null;
		if (key !== this.shownWarning) this.shownWarning = null;
		this.markAnyway();
		if (!warning) return;
		this.warningEl.createDiv({ cls: "a2a-warning-title", text: FORM_TEXT.forward.wouldReject(warning.code) });
		this.warningEl.createDiv({ cls: "a2a-warning-reason", text: warning.reason });
		this.warningEl.createDiv({ cls: "a2a-warning-hint", text: FORM_TEXT.forward.anywayHint });
	}

	/** Once the router's refusal was shown, the submit button is "Forward anyway", a warning, not the primary action. */
	private markAnyway(): void {
		const button = this.submitButton;
		if (!button) return;
		const anyway = this.shownWarning !== null;
		button.setText(this.submitLabel());
		button.toggleClass("mod-cta", !anyway);
		button.toggleClass("mod-warning", anyway);
	}

	protected submit(): Promise<boolean> {
		this.clearErrors();
		const planned = this.plan();
		if (!planned.ok) {
			this.showWarning(null, null);
			this.showErrors(planned.errors);
			return Promise.resolve(false);
		}
		if (planned.warning) {
			const key = `${this.field("to").value().trim()}|${planned.warning.code}`;
			if (this.shownWarning !== key) {
				this.showWarning(planned.warning, this.field("to").value().trim());
				this.shownWarning = key;
				this.markAnyway();
				// Not the main button any more: the safe way out is Cancel.
				this.contentEl.querySelector<HTMLElement>(".a2a-form-buttons button:not(.mod-warning)")?.focus();
				return Promise.resolve(false);
			}
		}
		return writePlannedNote(this.vault, planned).then((path) => {
			announceWritten(this.app, this.state, this.composed, NOTICE_TEXT.forwardWritten, path, messageIdOf(planned.text));
			return true;
		});
	}
}
