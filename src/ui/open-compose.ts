import { Notice } from "obsidian";
import { ComposeModal } from "./modals/compose-modal";
import { NOTICE_TEXT } from "./strings";
import type { UiParts } from "./ui-parts";

/** Opens Compose message…; without two groups to send between it says what is missing instead. */
export function openCompose({ app, state, settings, vault, composed }: Pick<UiParts, "app" | "state" | "settings" | "vault" | "composed">): void {
	const groups = state.layout().groupIds().length;
	if (groups < 2) {
		new Notice(groups === 0 ? NOTICE_TEXT.composeNeedsGroups : NOTICE_TEXT.composeNeedsTwoGroups, 12000);
		return;
	}
	new ComposeModal(app, state, settings, vault, composed).open();
}
