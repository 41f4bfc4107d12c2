/// <reference types="obsidian" />
/**
 * The project's fake of the `obsidian` module. Tests alias `obsidian` to this file; it must not
 * import any Node module (it is also bundled for a browser test). The host harness is in host.ts
 * (and node-host.ts for a temp folder); the DOM helpers are installed by setup-dom.ts.
 */
export { FileSystemAdapter, type DataWriteOptions, type ListedFiles, type Stat } from "./adapter";
export { App } from "./app";
export { CommandRegistry, type Command, type Hotkey } from "./commands";
export { Component } from "./component";
export {
	AbstractTextComponent,
	BaseComponent,
	ButtonComponent,
	ColorComponent,
	DropdownComponent,
	ExtraButtonComponent,
	MomentFormatComponent,
	ProgressBarComponent,
	SearchComponent,
	SliderComponent,
	TextAreaComponent,
	TextComponent,
	ToggleComponent,
	ValueComponent,
} from "./components";
export { Events, type EventRef } from "./events";
export { FileManager } from "./file-manager";
export { TAbstractFile, TFile, TFolder, type FileStats } from "./files";
export { addIcon, getIcon, getIconIds, removeIcon, setIcon } from "./icons";
export {
	Keymap,
	Scope,
	type KeymapContext,
	type KeymapEventHandler,
	type KeymapEventListener,
	type KeymapInfo,
	type Modifier,
	type UserEvent,
} from "./keymap";
export type { CachedMetadata, HeadingCache, LinkCache, Loc, Pos, TagCache } from "./markdown";
export { Menu, MenuItem, MenuSeparator, type MenuPositionDef } from "./menu";
export { MetadataCache } from "./metadata-cache";
export { Modal } from "./modal";
export { Notice } from "./notice";
export { normalizePath } from "./paths";
export { Plugin, type HoverLinkSource, type MarkdownPostProcessor, type MarkdownPostProcessorContext, type PluginManifest } from "./plugin";
export {
	MarkdownRenderChild,
	MarkdownRenderer,
	request,
	requestUrl,
	Tasks,
	type RequestUrlParam,
	type RequestUrlResponse,
} from "./render";
export { SecretComponent, SecretStorage } from "./secret-storage";
export { DisplayValueComponent, Setting } from "./setting";
export { PluginSettingTab, SettingTab } from "./setting-tab";
export {
	AbstractInputSuggest,
	FuzzySuggestModal,
	PopoverSuggest,
	SuggestModal,
	type FuzzyMatch,
	type Instruction,
} from "./suggest";
export {
	apiVersion,
	arrayBufferToBase64,
	arrayBufferToHex,
	base64ToArrayBuffer,
	debounce,
	displayTooltip,
	getAllTags,
	getLanguage,
	getLinkpath,
	hexToArrayBuffer,
	htmlToMarkdown,
	parseFrontMatterAliases,
	parseFrontMatterEntry,
	parseFrontMatterStringArray,
	parseFrontMatterTags,
	parseLinktext,
	Platform,
	prepareFuzzySearch,
	prepareSimpleSearch,
	requireApiVersion,
	sanitizeHTMLToDom,
	setTooltip,
	stripHeading,
	stripHeadingForLink,
	type Debouncer,
	type SearchResult,
	type TooltipOptions,
} from "./utils";
export { moment } from "./moment";
export { Vault } from "./vault";
export {
	EditableFileView,
	Editor,
	FileView,
	ItemView,
	MarkdownView,
	TextFileView,
	View,
	type EditorPosition,
	type ViewStateResult,
} from "./view";
export {
	Workspace,
	WorkspaceLeaf,
	WorkspaceRibbon,
	WorkspaceSplit,
	WorkspaceSplit as WorkspaceSidedock,
	WorkspaceSplit as WorkspaceRoot,
	WorkspaceTabs,
	type OpenViewState,
	type PaneType,
	type Side,
	type SplitDirection,
	type ViewCreator,
	type ViewState,
} from "./workspace";
export { getFrontMatterInfo, parseYaml, stringifyYaml, type FrontMatterInfo } from "./yaml";
