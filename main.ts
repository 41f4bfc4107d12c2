import { Plugin } from "obsidian";

export default class A2ARelayPlugin extends Plugin {
	async onload(): Promise<void> {}
}
