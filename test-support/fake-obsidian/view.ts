/**
 * View / ItemView and the file views. Like Obsidian, `containerEl.children[0]` is the view header
 * and (for ItemView) `containerEl.children[1]` is `contentEl`. Opening calls load() then onOpen();
 * closing calls onClose(), unload() (which undoes registerEvent/registerInterval/...), then removes
 * the DOM.
 */
import type { App } from "./app";
import { Component } from "./component";
import type { TFile } from "./files";
import { setIcon } from "./icons";
import type { Menu } from "./menu";
import type { Scope } from "./keymap";
import { debounce } from "./utils";
import type { WorkspaceLeaf } from "./workspace";

export interface ViewStateResult {
	history: boolean;
}

export abstract class View extends Component {
	app: App;
	icon = "";
	navigation = false;
	leaf: WorkspaceLeaf;
	containerEl: HTMLElement;
	scope: Scope | null = null;
	/** Fake-only: the header (children[0]). */
	headerEl: HTMLElement;
	/** Fake-only: where addAction puts its buttons. */
	actionsEl: HTMLElement;

	constructor(leaf: WorkspaceLeaf) {
		super();
		this.leaf = leaf;
		this.app = leaf.app;
		this.containerEl = createDiv({ cls: "workspace-leaf-content" });
		this.headerEl = this.containerEl.createDiv({ cls: "view-header" });
		this.headerEl.createDiv({ cls: "view-header-title" });
		this.actionsEl = this.headerEl.createDiv({ cls: "view-actions" });
	}

	protected async onOpen(): Promise<void> {}

	protected async onClose(): Promise<void> {}

	abstract getViewType(): string;

	abstract getDisplayText(): string;

	getState(): Record<string, unknown> {
		return {};
	}

	async setState(state: unknown, result: ViewStateResult): Promise<void> {
		void state;
		void result;
	}

	getEphemeralState(): Record<string, unknown> {
		return {};
	}

	setEphemeralState(state: unknown): void {
		void state;
	}

	getIcon(): string {
		return this.icon;
	}

	onResize(): void {}

	onPaneMenu(menu: Menu, source: string): void {
		void menu;
		void source;
	}
}

export abstract class ItemView extends View {
	contentEl: HTMLElement;

	constructor(leaf: WorkspaceLeaf) {
		super(leaf);
		this.contentEl = this.containerEl.createDiv({ cls: "view-content" });
	}

	/** Like Obsidian, each new action goes first (leftmost) in the header. */
	addAction(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
		const el = this.actionsEl.createEl("a", { cls: "clickable-icon view-action", attr: { "aria-label": title }, prepend: true });
		setIcon(el, icon);
		el.addEventListener("click", (evt) => this.app.runtime.track(callback(evt), `view action '${title}'`));
		return el;
	}
}

/** Fake-only lifecycle used by WorkspaceLeaf: attach, load, onOpen. */
export async function openView(view: View, parentEl: HTMLElement): Promise<void> {
	view.containerEl.setAttr("data-type", view.getViewType());
	parentEl.appendChild(view.containerEl);
	view.load();
	await (view as unknown as { onOpen(): Promise<void> }).onOpen();
}

/** Fake-only lifecycle used by WorkspaceLeaf: onClose, unload, detach the DOM. */
export async function closeView(view: View): Promise<void> {
	try {
		await (view as unknown as { onClose(): Promise<void> }).onClose();
	} finally {
		view.unload();
		view.containerEl.detach();
	}
}

/** The view of a leaf with nothing in it. */
export class EmptyView extends ItemView {
	getViewType(): string {
		return "empty";
	}

	getDisplayText(): string {
		return "New tab";
	}
}

/**
 * Placeholder for a leaf whose view has not been loaded (Obsidian 1.7.2+ deferred views, or a
 * view type whose plugin is not loaded). Reports the real type but is not an instance of the
 * registered view class; `leaf.loadIfDeferred()` replaces it.
 */
export class DeferredView extends View {
	readonly viewType: string;
	readonly state: Record<string, unknown>;

	constructor(leaf: WorkspaceLeaf, viewType: string, state: Record<string, unknown> = {}) {
		super(leaf);
		this.viewType = viewType;
		this.state = state;
	}

	getViewType(): string {
		return this.viewType;
	}

	getDisplayText(): string {
		return this.viewType;
	}

	getState(): Record<string, unknown> {
		return this.state;
	}
}

export abstract class FileView extends ItemView {
	allowNoFile = false;
	file: TFile | null = null;
	navigation = true;

	getDisplayText(): string {
		return this.file?.basename ?? "No file";
	}

	getState(): Record<string, unknown> {
		return this.file ? { file: this.file.path } : {};
	}

	async setState(state: unknown, result: ViewStateResult): Promise<void> {
		const path = (state as { file?: unknown } | null)?.file;
		if (typeof path === "string") {
			const file = this.app.vault.getFileByPath(path);
			if (file) await this.loadFile(file);
		}
		await super.setState(state, result);
	}

	/** Fake-only: switch the view to a file (onUnloadFile for the old one, then onLoadFile). */
	async loadFile(file: TFile): Promise<void> {
		if (this.file === file) return;
		if (this.file) await this.onUnloadFile(this.file);
		this.file = file;
		await this.onLoadFile(file);
	}

	async onLoadFile(file: TFile): Promise<void> {
		void file;
	}

	async onUnloadFile(file: TFile): Promise<void> {
		void file;
	}

	async onRename(file: TFile): Promise<void> {
		void file;
	}

	canAcceptExtension(extension: string): boolean {
		return extension === "md";
	}
}

export abstract class EditableFileView extends FileView {}

export abstract class TextFileView extends EditableFileView {
	data = "";
	requestSave: () => void;

	constructor(leaf: WorkspaceLeaf) {
		super(leaf);
		this.requestSave = debounce(() => this.save(), 2, true);
	}

	async onLoadFile(file: TFile): Promise<void> {
		this.data = await this.app.vault.read(file);
		this.setViewData(this.data, true);
	}

	async onUnloadFile(file: TFile): Promise<void> {
		void file;
		this.clear();
	}

	async save(clear?: boolean): Promise<void> {
		void clear;
		if (!this.file) return;
		const data = this.getViewData();
		if (data !== (await this.app.vault.read(this.file))) await this.app.vault.modify(this.file, data);
	}

	abstract getViewData(): string;

	abstract setViewData(data: string, clear: boolean): void;

	abstract clear(): void;
}

export interface EditorPosition {
	line: number;
	ch: number;
}

/** A text-only editor over a string (enough for editorCallback commands). */
export class Editor {
	private text: string;
	private cursor: EditorPosition = { line: 0, ch: 0 };
	private anchor: EditorPosition | null = null;
	private readonly onChange: (text: string) => void;

	constructor(text = "", onChange: (text: string) => void = () => undefined) {
		this.text = text;
		this.onChange = onChange;
	}

	private offset(pos: EditorPosition): number {
		const lines = this.text.split("\n");
		let off = 0;
		for (let i = 0; i < Math.min(pos.line, lines.length); i++) off += (lines[i]?.length ?? 0) + 1;
		return Math.min(this.text.length, off + pos.ch);
	}

	offsetToPos(offset: number): EditorPosition {
		const before = this.text.slice(0, offset).split("\n");
		return { line: before.length - 1, ch: before[before.length - 1]?.length ?? 0 };
	}

	posToOffset(pos: EditorPosition): number {
		return this.offset(pos);
	}

	getValue(): string {
		return this.text;
	}

	setValue(content: string): void {
		this.text = content;
		this.onChange(content);
	}

	getLine(line: number): string {
		return this.text.split("\n")[line] ?? "";
	}

	lineCount(): number {
		return this.text.split("\n").length;
	}

	lastLine(): number {
		return this.lineCount() - 1;
	}

	getCursor(): EditorPosition {
		return { ...this.cursor };
	}

	setCursor(pos: EditorPosition | number, ch?: number): void {
		this.cursor = typeof pos === "number" ? { line: pos, ch: ch ?? 0 } : { ...pos };
		this.anchor = null;
	}

	setSelection(anchor: EditorPosition, head?: EditorPosition): void {
		this.anchor = { ...anchor };
		this.cursor = { ...(head ?? anchor) };
	}

	getSelection(): string {
		if (!this.anchor) return "";
		const a = this.offset(this.anchor);
		const b = this.offset(this.cursor);
		return this.text.slice(Math.min(a, b), Math.max(a, b));
	}

	getRange(from: EditorPosition, to: EditorPosition): string {
		return this.text.slice(this.offset(from), this.offset(to));
	}

	replaceRange(replacement: string, from: EditorPosition, to?: EditorPosition): void {
		const a = this.offset(from);
		const b = to ? this.offset(to) : a;
		this.setValue(this.text.slice(0, a) + replacement + this.text.slice(b));
	}

	replaceSelection(replacement: string): void {
		const a = this.anchor ? this.offset(this.anchor) : this.offset(this.cursor);
		const b = this.offset(this.cursor);
		const start = Math.min(a, b);
		this.setValue(this.text.slice(0, start) + replacement + this.text.slice(Math.max(a, b)));
		this.cursor = this.offsetToPos(start + replacement.length);
		this.anchor = null;
	}

	getDoc(): this {
		return this;
	}

	setLine(n: number, text: string): void {
		const lines = this.text.split("\n");
		if (n < 0 || n >= lines.length) return;
		lines[n] = text;
		this.setValue(lines.join("\n"));
	}

	somethingSelected(): boolean {
		return this.getSelection() !== "";
	}

	listSelections(): Array<{ anchor: EditorPosition; head: EditorPosition }> {
		return [{ anchor: { ...(this.anchor ?? this.cursor) }, head: { ...this.cursor } }];
	}

	setSelections(ranges: Array<{ anchor: EditorPosition; head?: EditorPosition }>, main?: number): void {
		const range = ranges[main ?? 0] ?? ranges[0];
		if (range) this.setSelection(range.anchor, range.head);
	}

	wordAt(pos: EditorPosition): { from: EditorPosition; to: EditorPosition } | null {
		const line = this.getLine(pos.line);
		let from = pos.ch;
		let to = pos.ch;
		while (from > 0 && /\w/.test(line[from - 1] ?? "")) from--;
		while (to < line.length && /\w/.test(line[to] ?? "")) to++;
		return from === to ? null : { from: { line: pos.line, ch: from }, to: { line: pos.line, ch: to } };
	}

	processLines<T>(
		read: (line: number, lineText: string) => T | null,
		write: (line: number, lineText: string, value: T | null) => { from: EditorPosition; to?: EditorPosition; text: string } | void,
		ignoreEmpty = true,
	): void {
		const lines = this.text.split("\n");
		const changes: Array<{ from: EditorPosition; to?: EditorPosition; text: string }> = [];
		lines.forEach((text, i) => {
			if (ignoreEmpty && text === "") return;
			const change = write(i, text, read(i, text));
			if (change) changes.push(change);
		});
		for (const c of changes.reverse()) this.replaceRange(c.text, c.from, c.to);
	}

	transaction(tx: { changes?: Array<{ from: EditorPosition; to?: EditorPosition; text: string }>; selection?: { from: EditorPosition; to?: EditorPosition } }): void {
		const changes = (tx.changes ?? []).slice().sort((a, b) => this.offset(b.from) - this.offset(a.from));
		for (const c of changes) this.replaceRange(c.text, c.from, c.to);
		if (tx.selection) this.setSelection(tx.selection.from, tx.selection.to);
	}

	getScrollInfo(): { top: number; left: number } {
		return { top: 0, left: 0 };
	}

	scrollTo(x?: number | null, y?: number | null): void {
		void x;
		void y;
	}

	scrollIntoView(range: unknown, center?: boolean): void {
		void range;
		void center;
	}

	undo(): void {}

	redo(): void {}

	exec(command: string): void {
		void command;
	}

	/** Fake-only: replace the text without the change callback (the view loading a file). */
	resetText(text: string): void {
		this.text = text;
		this.cursor = { line: 0, ch: 0 };
		this.anchor = null;
	}

	focus(): void {}

	blur(): void {}

	hasFocus(): boolean {
		return false;
	}

	refresh(): void {}
}

export class MarkdownView extends TextFileView {
	editor: Editor;

	constructor(leaf: WorkspaceLeaf) {
		super(leaf);
		this.editor = new Editor("", (text) => {
			this.data = text;
			this.requestSave();
		});
	}

	getViewType(): string {
		return "markdown";
	}

	getMode(): "source" | "preview" {
		return "source";
	}

	getViewData(): string {
		return this.data;
	}

	setViewData(data: string, clear: boolean): void {
		void clear;
		this.data = data;
		this.editor.resetText(data);
	}

	clear(): void {
		this.data = "";
		this.editor.resetText("");
	}

	showSearch(replace?: boolean): void {
		void replace;
	}
}
