/** Node-only: a FakeHost over a fresh temp folder (NodeDisk), with cleanup(). */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AppOptions } from "./app";
import { FakeHost } from "./host";
import { NodeDisk } from "./node-disk";
import { nodeRequestTransport } from "./node-request";
import { setRequestUrlTransport } from "./render";

export interface TempHostOptions extends AppOptions {
	/** Files written to the folder before anything loads. */
	files?: Record<string, string>;
	prefix?: string;
	logErrors?: boolean;
}

export class TempHost extends FakeHost {
	/** Absolute path of the vault folder. */
	readonly dir: string;

	constructor(dir: string, options: TempHostOptions = {}) {
		super({ ...options, disk: new NodeDisk(dir) });
		this.dir = dir;
		// requestUrl reaches the network as in Obsidian: no CORS.
		setRequestUrlTransport(nodeRequestTransport);
	}

	/**
	 * Waits until settled, unloads plugins, then removes the folder. A plugin may start work in its
	 * onunload that the host cannot track (a router releasing its lease note): a short pause lets it
	 * land, and the removal retries while such a write still empties a folder late.
	 */
	async cleanup(): Promise<void> {
		await this.dispose();
		await new Promise((resolve) => setTimeout(resolve, 25));
		await rm(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
	}
}

export async function createTempHost(options: TempHostOptions = {}): Promise<TempHost> {
	const dir = await mkdtemp(join(tmpdir(), options.prefix ?? "fake-obsidian-"));
	const host = new TempHost(dir, options);
	if (options.files) await host.seed(options.files);
	return host;
}
