import { COMMAND_NAMES, WELCOME_TEXT } from "../strings";
import { setHidden, setTextIfChanged } from "./dom-text";
import { actionButton } from "./flow-lists";

// The first minute: one card with a short checklist (create the folders, create an agent, send a
// first message), each step ticked once it is done, and one button: the next step's. It shows until
// all three are done; until the folders exist the rest of the view stays hidden behind it.

export interface WelcomeProgress {
	folders: boolean;
	agent: boolean;
	message: boolean;
}

const STEPS: { key: keyof WelcomeProgress; text: string; action: string; button: string }[] = [
	{ key: "folders", text: WELCOME_TEXT.stepFolders, action: "init-vault", button: WELCOME_TEXT.createFolders },
	{ key: "agent", text: WELCOME_TEXT.stepAgent, action: "new-agent", button: COMMAND_NAMES.newAgent },
	{ key: "message", text: WELCOME_TEXT.stepMessage, action: "compose", button: COMMAND_NAMES.composeMessage },
];

export class WelcomeCard {
	readonly el: HTMLElement;
	private readonly items = new Map<keyof WelcomeProgress, HTMLElement>();
	private readonly buttonEl: HTMLButtonElement;
	private signature = "";

	constructor(parent: HTMLElement) {
		this.el = parent.createDiv({ cls: "a2a-welcome a2a-hidden", attr: { role: "region", "aria-label": WELCOME_TEXT.title } });
		this.el.createEl("h4", { cls: "a2a-welcome-title", text: WELCOME_TEXT.title });
		this.el.createDiv({ cls: "a2a-welcome-intro", text: WELCOME_TEXT.intro });
		const list = this.el.createEl("ol", { cls: "a2a-welcome-steps" });
		for (const step of STEPS) {
			const li = list.createEl("li", { cls: "a2a-welcome-step", attr: { "data-step": step.key } });
			li.createSpan({ cls: "a2a-step-mark", attr: { "aria-hidden": "true" } });
			li.createSpan({ cls: "a2a-step-text", text: step.text });
			li.createSpan({ cls: "a2a-step-state a2a-visually-hidden" });
			this.items.set(step.key, li);
		}
		this.buttonEl = actionButton(this.el, "init-vault", WELCOME_TEXT.createFolders, "a2a-welcome-button");
	}

	/** Shows the card while a step is left; returns whether it is shown. */
	render(progress: WelcomeProgress): boolean {
		const next = STEPS.find((step) => !progress[step.key]);
		const signature = JSON.stringify(progress);
		if (signature !== this.signature) {
			this.signature = signature;
			for (const step of STEPS) {
				const li = this.items.get(step.key);
				if (!li) continue;
				const done = progress[step.key];
				li.toggleClass("a2a-step-done", done);
				li.toggleClass("a2a-step-next", step === next);
				li.setAttr("data-done", String(done));
				setTextIfChanged(li.querySelector<HTMLElement>(".a2a-step-mark") ?? li, done ? "✓" : String(STEPS.indexOf(step) + 1));
				setTextIfChanged(li.querySelector<HTMLElement>(".a2a-step-state") ?? li, done ? WELCOME_TEXT.done : step === next ? WELCOME_TEXT.next : "");
			}
			if (next) {
				this.buttonEl.setAttr("data-a2a-action", next.action);
				setTextIfChanged(this.buttonEl, next.button);
			}
		}
		setHidden(this.el, next === undefined);
		return next !== undefined;
	}
}
