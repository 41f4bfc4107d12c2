/** Free functions and values of the obsidian module (debounce, Platform, link and search helpers...). */
import { currentRuntime } from "./runtime";
import type { CachedMetadata } from "./markdown";

export const apiVersion = "1.13.1";

export function requireApiVersion(version: string): boolean {
	void version;
	return true;
}

export function getLanguage(): string {
	return "en";
}

export const Platform = {
	isDesktop: true,
	isMobile: false,
	isDesktopApp: true,
	isMobileApp: false,
	isIosApp: false,
	isAndroidApp: false,
	isPhone: false,
	isTablet: false,
	isMacOS: false,
	isWin: false,
	isLinux: true,
	isSafari: false,
	resourcePathPrefix: "app://fake-obsidian/",
};

export interface Debouncer<T extends unknown[], V> {
	(...args: [...T]): Debouncer<T, V>;
	cancel(): Debouncer<T, V>;
	run(): V | void;
}

/**
 * Obsidian's debounce: calls `cb` with the last arguments `timeout` ms after the first call
 * (after the last call when `resetTimer`). Pending calls are tracked so `host.settled()` waits.
 */
export function debounce<T extends unknown[], V>(cb: (...args: [...T]) => V, timeout = 0, resetTimer = false): Debouncer<T, V> {
	const runtime = currentRuntime();
	let timer: ReturnType<typeof setTimeout> | null = null;
	let lastArgs: [...T] | null = null;
	let release: (() => void) | null = null;

	const finish = (): void => {
		timer = null;
		release?.();
		release = null;
	};
	const fire = (): V | void => {
		const args = lastArgs;
		lastArgs = null;
		finish();
		if (args === null) return;
		const result = cb(...args);
		runtime.track(result, "debounced callback");
		return result;
	};
	const debouncer = ((...args: [...T]) => {
		lastArgs = args;
		if (timer !== null && resetTimer) {
			clearTimeout(timer);
			timer = null;
		}
		if (timer === null) {
			if (release === null) runtime.track(new Promise<void>((resolve) => (release = resolve)), "debounce timer");
			timer = setTimeout(fire, timeout);
		}
		return debouncer;
	}) as Debouncer<T, V>;
	debouncer.cancel = () => {
		if (timer !== null) clearTimeout(timer);
		lastArgs = null;
		finish();
		return debouncer;
	};
	debouncer.run = () => {
		if (timer === null) return;
		clearTimeout(timer);
		return fire();
	};
	return debouncer;
}

export interface TooltipOptions {
	placement?: "bottom" | "right" | "left" | "top";
	classes?: string[];
	gap?: number;
	delay?: number;
}

export function setTooltip(el: HTMLElement, tooltip: string, options?: TooltipOptions): void {
	if (tooltip === "") el.removeAttribute("aria-label");
	else el.setAttribute("aria-label", tooltip);
	if (options?.placement) el.setAttribute("data-tooltip-position", options.placement);
}

export function displayTooltip(newTargetEl: HTMLElement, content: string | DocumentFragment, options?: TooltipOptions): void {
	setTooltip(newTargetEl, typeof content === "string" ? content : (content.textContent ?? ""), options);
}

const UNSAFE_TAGS = new Set(["script", "style", "iframe", "object", "embed", "link", "meta", "base", "form"]);

/** Parses HTML into a fragment and strips scripts, event handler attributes and javascript: URLs. */
export function sanitizeHTMLToDom(html: string): DocumentFragment {
	const template = document.createElement("template");
	template.innerHTML = html;
	const fragment = template.content;
	const walk = (parent: ParentNode): void => {
		for (const el of Array.from(parent.children)) {
			if (UNSAFE_TAGS.has(el.tagName.toLowerCase())) {
				el.remove();
				continue;
			}
			for (const attr of Array.from(el.attributes)) {
				const name = attr.name.toLowerCase();
				const value = attr.value.trim().toLowerCase();
				if (name.startsWith("on") || ((name === "href" || name === "src") && value.startsWith("javascript:"))) {
					el.removeAttribute(attr.name);
				}
			}
			walk(el);
		}
	};
	walk(fragment);
	return fragment;
}

export function htmlToMarkdown(html: string | HTMLElement | Document | DocumentFragment): string {
	if (typeof html === "string") return sanitizeHTMLToDom(html).textContent ?? "";
	return html.textContent ?? "";
}

export function parseLinktext(linktext: string): { path: string; subpath: string } {
	const i = linktext.search(/[#^]/);
	if (i < 0) return { path: linktext, subpath: "" };
	return { path: linktext.slice(0, i), subpath: linktext.slice(i) };
}

export function getLinkpath(linktext: string): string {
	return parseLinktext(linktext).path;
}

export function stripHeading(heading: string): string {
	return heading.replace(/[!"#$%&()*+,.:;<=>?@^`{|}~/[\]\\]/g, " ").replace(/\s+/g, " ").trim();
}

export function stripHeadingForLink(heading: string): string {
	return heading.replace(/[#|^\\%]|\[\[|\]\]/g, " ").replace(/\s+/g, " ").trim();
}

export interface SearchResult {
	score: number;
	matches: Array<[number, number]>;
}

/** Subsequence match, case-insensitive; a higher (less negative) score is better. */
export function prepareFuzzySearch(query: string): (text: string) => SearchResult | null {
	const q = query.toLowerCase().replace(/\s+/g, "");
	return (text: string) => {
		if (q === "") return { score: 0, matches: [] };
		const t = text.toLowerCase();
		const matches: Array<[number, number]> = [];
		let from = 0;
		let gaps = 0;
		for (const ch of q) {
			const i = t.indexOf(ch, from);
			if (i < 0) return null;
			gaps += i - from;
			const last = matches[matches.length - 1];
			if (last && last[1] === i) last[1] = i + 1;
			else matches.push([i, i + 1]);
			from = i + 1;
		}
		return { score: -gaps - matches.length * 0.1, matches };
	};
}

/** Every space-separated word must occur (case-insensitive). */
export function prepareSimpleSearch(query: string): (text: string) => SearchResult | null {
	const words = query.toLowerCase().split(/\s+/).filter((w) => w.length > 0);
	return (text: string) => {
		const t = text.toLowerCase();
		const matches: Array<[number, number]> = [];
		for (const w of words) {
			const i = t.indexOf(w);
			if (i < 0) return null;
			matches.push([i, i + w.length]);
		}
		matches.sort((a, b) => a[0] - b[0]);
		return { score: 0, matches };
	};
}

export function parseFrontMatterEntry(frontmatter: Record<string, unknown> | null | undefined, key: string | RegExp): unknown {
	if (!frontmatter) return null;
	for (const [k, v] of Object.entries(frontmatter)) {
		if (typeof key === "string" ? k === key : key.test(k)) return v;
	}
	return null;
}

export function parseFrontMatterStringArray(frontmatter: Record<string, unknown> | null | undefined, key: string | RegExp): string[] | null {
	const value = parseFrontMatterEntry(frontmatter, key);
	if (value === null || value === undefined) return null;
	const list = Array.isArray(value) ? value : String(value).split(/[,\s]+/);
	const out = list.map((v) => String(v).trim()).filter((v) => v.length > 0);
	return out.length > 0 ? out : null;
}

export function parseFrontMatterTags(frontmatter: Record<string, unknown> | null | undefined): string[] | null {
	const tags = parseFrontMatterStringArray(frontmatter, /^tags?$/i);
	return tags ? tags.map((t) => (t.startsWith("#") ? t : `#${t}`)) : null;
}

export function parseFrontMatterAliases(frontmatter: Record<string, unknown> | null | undefined): string[] | null {
	return parseFrontMatterStringArray(frontmatter, /^alias(es)?$/i);
}

export function getAllTags(cache: CachedMetadata): string[] | null {
	const tags = [...(parseFrontMatterTags(cache.frontmatter) ?? []), ...(cache.tags ?? []).map((t) => t.tag)];
	return tags.length > 0 ? tags : null;
}

export function arrayBufferToBase64(buffer: ArrayBuffer): string {
	let binary = "";
	for (const b of new Uint8Array(buffer)) binary += String.fromCharCode(b);
	return btoa(binary);
}

export function base64ToArrayBuffer(base64: string): ArrayBuffer {
	const binary = atob(base64);
	const bytes = new Uint8Array(binary.length);
	for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
	return bytes.buffer;
}

export function arrayBufferToHex(data: ArrayBuffer): string {
	return Array.from(new Uint8Array(data), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function hexToArrayBuffer(hex: string): ArrayBuffer {
	const bytes = new Uint8Array(hex.length / 2);
	for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
	return bytes.buffer;
}
