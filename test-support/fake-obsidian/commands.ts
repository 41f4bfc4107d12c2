/** `app.commands`: the command registry and executeCommandById with Obsidian's callback semantics. */
import type { Runtime } from "./runtime";
import type { Editor, MarkdownView } from "./view";
import type { Workspace } from "./workspace";

export interface Hotkey {
	modifiers: string[];
	key: string;
}

export interface Command {
	id: string;
	name: string;
	icon?: string;
	mobileOnly?: boolean;
	repeatable?: boolean;
	callback?: () => unknown;
	checkCallback?: (checking: boolean) => boolean | void;
	editorCallback?: (editor: Editor, ctx: MarkdownView) => unknown;
	editorCheckCallback?: (checking: boolean, editor: Editor, ctx: MarkdownView) => boolean | void;
	hotkeys?: Hotkey[];
}

export class CommandRegistry {
	readonly commands: Record<string, Command> = {};
	private readonly workspace: Workspace;
	private readonly runtime: Runtime;

	constructor(workspace: Workspace, runtime: Runtime) {
		this.workspace = workspace;
		this.runtime = runtime;
	}

	addCommand(command: Command): void {
		this.commands[command.id] = command;
	}

	removeCommand(id: string): void {
		delete this.commands[id];
	}

	listCommands(): Command[] {
		return Object.values(this.commands);
	}

	findCommand(id: string): Command | undefined {
		return this.commands[id];
	}

	/**
	 * Runs a command like the palette/hotkey would. Returns false when it is unknown or not
	 * available: checkCallback(true) (or editorCheckCallback(true, ...)) returned falsy, or an
	 * editor command without an active markdown editor. Otherwise runs it and returns true.
	 */
	executeCommandById(id: string): boolean {
		const command = this.findCommand(id);
		return command ? this.executeCommand(command) : false;
	}

	executeCommand(command: Command): boolean {
		const source = `command '${command.id}'`;
		const view = this.workspace.activeEditor;
		if (command.editorCheckCallback || command.editorCallback) {
			if (!view) return false;
			if (command.editorCheckCallback) {
				if (!command.editorCheckCallback(true, view.editor, view)) return false;
				this.runtime.track(command.editorCheckCallback(false, view.editor, view), source);
				return true;
			}
			this.runtime.track(command.editorCallback?.(view.editor, view), source);
			return true;
		}
		if (command.checkCallback) {
			if (!command.checkCallback(true)) return false;
			this.runtime.track(command.checkCallback(false), source);
			return true;
		}
		if (command.callback) {
			this.runtime.track(command.callback(), source);
			return true;
		}
		return false;
	}
}
