import type { App } from "obsidian";
import { parseInteger } from "../../actions/input";
import { CORRECTABLE, checkRetry, requeue } from "../../actions/retry";
import type { CorrectionKind, Corrections, DeadLetterNote } from "../../actions/retry";
import type { ActionVault } from "../../actions/vault";
import type { RelayState } from "../../obsidian/relay-state";
import { GroupSuggest } from "../suggest/group-suggest";
import type { ComposedMessages } from "../../obsidian/composed-messages";
import { announceWritten } from "../notices/message-notice";
import { FORM_TEXT, NOTICE_TEXT } from "../strings";
import { FormModal } from "./form";

// Retry dead letter: why the message died, the fields that fail (to correct them), and a retry
// that puts it back into its sender's outbox once the corrected note passes the router's checks.

function asText(value: unknown): string {
	if (value === undefined || value === null) return "";
	if (typeof value === "string") return value;
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	return JSON.stringify(value);
}

function isChoices(kind: CorrectionKind): kind is readonly string[] {
	return typeof kind !== "string";
}

export class RetryModal extends FormModal {
	constructor(
		app: App,
		private readonly state: RelayState,
		private readonly vault: ActionVault,
		private readonly deadLetter: DeadLetterNote,
		private readonly correctable: string[],
		private readonly composed: ComposedMessages,
	) {
		super(app);
		this.setTitle(FORM_TEXT.retry.title);
	}

	protected submitLabel(): string {
		return FORM_TEXT.retry.submit;
	}

	private rawFields(): Record<string, unknown> {
		return this.deadLetter.read.ok ? this.deadLetter.read.raw.fields : {};
	}

	protected build(el: HTMLElement): void {
		const dl = this.deadLetter;
		const why = el.createDiv({ cls: "a2a-retry-why" });
		why.createDiv({ cls: "a2a-retry-code", text: FORM_TEXT.retry.why(dl.errorCode) });
		if (dl.errorMessage) why.createDiv({ cls: "a2a-retry-message", text: dl.errorMessage });
		if (dl.quarantined) {
			el.createEl("p", { cls: "a2a-modal-summary", text: FORM_TEXT.retry.quarantined });
		}
		const fields = this.rawFields();
		const sender = asText(fields.source_group);
		el.createEl("p", {
			cls: "a2a-modal-summary",
			text: FORM_TEXT.retry.summary(sender, dl.retryCount + 1),
		});
		if (this.correctable.length > 0) {
			el.createEl("p", { cls: "a2a-modal-summary", text: FORM_TEXT.retry.correctFirst });
		}
		for (const key of this.correctable) {
			const spec = CORRECTABLE[key];
			if (!spec) continue;
			const current = asText(fields[key]);
			const kind = spec.kind;
			if (isChoices(kind)) {
				const choices: Record<string, string> = {};
				if (spec.optional) choices[""] = FORM_TEXT.retry.none;
				for (const c of kind) choices[c] = c;
				const valid = kind.includes(current) || (spec.optional && current === "");
				this.dropdown(el, key, spec.label, choices, {
					value: valid ? current : spec.optional ? "" : (kind[0] ?? ""),
					desc: valid ? key : FORM_TEXT.retry.was(key, current),
				});
			} else {
				const field = this.text(el, key, spec.label, { value: current, desc: key });
				if (spec.kind === "group") {
					new GroupSuggest(this.app, field.control as HTMLInputElement, () => [...this.state.registry().groups.values()]);
				}
				if (spec.kind === "integer") field.control.setAttr("inputmode", "numeric");
			}
		}
	}

	onOpen(): void {
		super.onOpen();
		// Say at once why each offered field fails.
		const check = checkRetry(this.state.routing(Date.now()), this.deadLetter, {});
		const shown: Record<string, string> = {};
		for (const key of this.correctable) if (check.errors[key]) shown[key] = check.errors[key];
		for (const [key, message] of Object.entries(shown)) this.fields.get(key)?.setError(message);
		this.focusFirst();
	}

	private corrections(): { corrections: Corrections; errors: Record<string, string> } {
		const corrections: Corrections = {};
		const errors: Record<string, string> = {};
		for (const key of this.correctable) {
			const spec = CORRECTABLE[key];
			const field = this.fields.get(key);
			if (!spec || !field) continue;
			const raw = field.value().trim();
			if (raw === "" && spec.optional) {
				corrections[key] = undefined;
			} else if (spec.kind === "integer") {
				const n = parseInteger(raw);
				if (n === null) errors[key] = FORM_TEXT.wholeNumber;
				else corrections[key] = n;
			} else {
				corrections[key] = raw;
			}
		}
		return { corrections, errors };
	}

	protected async submit(): Promise<boolean> {
		this.clearErrors();
		const now = Date.now();
		const { corrections, errors } = this.corrections();
		if (Object.keys(errors).length > 0) {
			this.showErrors(errors);
			return false;
		}
		const check = checkRetry(this.state.routing(now), this.deadLetter, corrections);
		if (Object.keys(check.errors).length > 0) {
			this.showErrors(check.errors);
			return false;
		}
		const path = await requeue(this.vault, { layout: this.state.layout() }, this.deadLetter, corrections, check.sender, now);
		const id = corrections.message_id ?? this.deadLetter.carriedMessageId ?? this.rawFields().message_id;
		announceWritten(this.app, this.state, this.composed, NOTICE_TEXT.backInOutbox, path, typeof id === "string" ? id : undefined);
		return true;
	}
}
