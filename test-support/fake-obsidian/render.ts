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

/**
 * Renders markdown as simple blocks: ATX headings become h1..h6, other non-empty lines become
 * paragraphs (text only: no inline formatting). Enough for tests that look for rendered text.
 */
export class MarkdownRenderer extends MarkdownRenderChild {
	static async render(app: App, markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
		void app;
		void sourcePath;
		void component;
		for (const line of markdown.split("\n")) {
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

/** Obsidian's requestUrl over the global fetch (throws on status >= 400 unless `throw: false`). */
export async function requestUrl(request: RequestUrlParam | string): Promise<RequestUrlResponse> {
	const req = typeof request === "string" ? { url: request } : request;
	const headers: Record<string, string> = { ...(req.headers ?? {}) };
	if (req.contentType) headers["content-type"] = req.contentType;
	const res = await fetch(req.url, { method: req.method ?? "GET", headers, body: req.body });
	const buffer = await res.arrayBuffer();
	const text = new TextDecoder().decode(buffer);
	const responseHeaders: Record<string, string> = {};
	res.headers.forEach((value, key) => {
		responseHeaders[key] = value;
	});
	const out: RequestUrlResponse = {
		status: res.status,
		headers: responseHeaders,
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
