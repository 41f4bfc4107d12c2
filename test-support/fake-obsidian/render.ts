/** MarkdownRenderChild, a plain-text MarkdownRenderer, Tasks, and requestUrl over fetch. */
import type { App } from "./app";
import { Component } from "./component";

export class MarkdownRenderChild extends Component {
	containerEl: HTMLElement;
	constructor(containerEl: HTMLElement) {
		super();
		this.containerEl = containerEl;
	}
}

/** The Mermaid library when a page loaded it (the browser test does); Obsidian bundles its own. */
interface MermaidLike {
	initialize(config: Record<string, unknown>): void;
	render(id: string, source: string): Promise<{ svg: string }>;
}

let diagrams = 0;

/** A fenced block: `pre > code.language-<lang>` like Obsidian; a mermaid block is a `div.mermaid`. */
async function renderFence(el: HTMLElement, lang: string, source: string): Promise<void> {
	if (lang !== "mermaid") {
		el.createEl("pre").createEl("code", { cls: lang ? `language-${lang}` : "", text: source });
		return;
	}
	const block = el.createDiv({ cls: "mermaid" });
	const mermaid = (globalThis as { mermaid?: MermaidLike }).mermaid;
	if (!mermaid) {
		// Without the library the diagram's source stands in for it (tests read it there).
		block.setText(source);
		return;
	}
	// Like Obsidian: the theme follows the app's (dark when the body has theme-dark).
	mermaid.initialize({ startOnLoad: false, theme: document.body.classList.contains("theme-dark") ? "dark" : "default" });
	const { svg } = await mermaid.render(`fake-mermaid-${++diagrams}`, source);
	const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
	block.appendChild(document.importNode(doc.documentElement, true));
}

/**
 * Renders markdown as simple blocks: ATX headings become h1..h6, fenced code blocks become
 * `pre > code` (a mermaid block becomes a `div.mermaid`, drawn when the page has the Mermaid
 * library), other non-empty lines become paragraphs (text only: no inline formatting). Enough for
 * tests that look for rendered text.
 */
export class MarkdownRenderer extends MarkdownRenderChild {
	static async render(app: App, markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
		void app;
		void sourcePath;
		void component;
		const lines = markdown.split("\n");
		for (let i = 0; i < lines.length; i++) {
			const line = lines[i] ?? "";
			const fence = /^```\s*([\w-]*)\s*$/.exec(line);
			if (fence) {
				const body: string[] = [];
				for (i++; i < lines.length && !(lines[i] ?? "").startsWith("```"); i++) body.push(lines[i] ?? "");
				await renderFence(el, fence[1] ?? "", body.join("\n"));
				continue;
			}
			const heading = /^(#{1,6})\s+(.*)$/.exec(line);
			if (heading?.[1]) el.createEl(`h${heading[1].length}` as "h1", { text: heading[2] ?? "" });
			else if (line.trim() !== "") el.createEl("p", { text: line });
		}
	}

	static async renderMarkdown(markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
		await MarkdownRenderer.render(undefined as unknown as App, markdown, el, sourcePath, component);
	}
}

export class Tasks {
	private readonly promises: Promise<unknown>[] = [];

	add(callback: () => Promise<unknown>): void {
		this.promises.push(callback());
	}

	addPromise(promise: Promise<unknown>): void {
		this.promises.push(promise);
	}

	isEmpty(): boolean {
		return this.promises.length === 0;
	}

	promise(): Promise<unknown> {
		return Promise.all(this.promises);
	}
}

export interface RequestUrlParam {
	url: string;
	method?: string;
	contentType?: string;
	body?: string | ArrayBuffer;
	headers?: Record<string, string>;
	throw?: boolean;
}

export interface RequestUrlResponse {
	status: number;
	headers: Record<string, string>;
	arrayBuffer: ArrayBuffer;
	json: unknown;
	text: string;
}

/** How the fake's requestUrl reaches the network: the global fetch unless a host installs another. */
export type RequestUrlTransport = (url: string, init: { method: string; headers: Record<string, string>; body?: string | ArrayBuffer }) => Promise<{ status: number; headers: Record<string, string>; body: ArrayBuffer }>;

const fetchTransport: RequestUrlTransport = async (url, init) => {
	const res = await fetch(url, init);
	const headers: Record<string, string> = {};
	res.headers.forEach((value, key) => {
		headers[key] = value;
	});
	return { status: res.status, headers, body: await res.arrayBuffer() };
};

let transport: RequestUrlTransport = fetchTransport;

/**
 * Obsidian's requestUrl has no CORS (unlike a page's fetch, which happy-dom's enforces): a Node host
 * installs a transport over node:http (node-host.ts) so that the fake behaves the same. `null`
 * restores the global fetch.
 */
export function setRequestUrlTransport(next: RequestUrlTransport | null): void {
	transport = next ?? fetchTransport;
}

/** Obsidian's requestUrl (throws on status >= 400 unless `throw: false`). */
export async function requestUrl(request: RequestUrlParam | string): Promise<RequestUrlResponse> {
	const req = typeof request === "string" ? { url: request } : request;
	const headers: Record<string, string> = { ...(req.headers ?? {}) };
	if (req.contentType) headers["content-type"] = req.contentType;
	const res = await transport(req.url, { method: req.method ?? "GET", headers, body: req.body });
	const buffer = res.body;
	const text = new TextDecoder().decode(buffer);
	const out: RequestUrlResponse = {
		status: res.status,
		headers: res.headers,
		arrayBuffer: buffer,
		text,
		get json(): unknown {
			return JSON.parse(text) as unknown;
		},
	};
	if (res.status >= 400 && req.throw !== false) {
		throw Object.assign(new Error(`Request failed, status ${res.status}`), { status: res.status, headers: out.headers });
	}
	return out;
}

export async function request(req: RequestUrlParam | string): Promise<string> {
	return (await requestUrl(req)).text;
}
