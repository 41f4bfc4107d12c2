import { Menu } from "obsidian";
import type { Plugin } from "obsidian";
import { ACTION_NAMES, VIEW_TEXT } from "./strings";

// The ribbon button: a menu of what is done most (Compose…, Route now, Open agent status).

export interface RibbonActions {
	compose: () => void;
	routeNow: () => void;
	openStatus: () => void;
}

export function registerRibbonMenu(plugin: Plugin, actions: RibbonActions): void {
	plugin.addRibbonIcon("radio-tower", VIEW_TEXT.agentMessages, (evt) => {
		const menu = new Menu();
		menu.addItem((item) => item.setTitle(ACTION_NAMES.compose).setIcon("mail-plus").onClick(() => actions.compose()));
		menu.addItem((item) => item.setTitle(ACTION_NAMES.routeNow).setIcon("send").onClick(() => actions.routeNow()));
		menu.addItem((item) => item.setTitle(ACTION_NAMES.openStatus).setIcon("radio-tower").onClick(() => actions.openStatus()));
		menu.showAtMouseEvent(evt);
	});
}
