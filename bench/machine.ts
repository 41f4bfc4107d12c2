import * as fs from "node:fs";
import * as os from "node:os";

// What the figures were measured on: printed at the top of `npm run bench`, with the load average
// at its start and end (the machine may be shared with other work).

/** The file system that holds `dir`: its type and device, read from /proc/mounts (Linux), else "unknown". */
export function fileSystemOf(dir: string): string {
	let real = dir;
	try {
		real = fs.realpathSync(dir);
	} catch {
		// Keep the path as given.
	}
	let mounts: string;
	try {
		mounts = fs.readFileSync("/proc/mounts", "utf8");
	} catch {
		return "unknown file system";
	}
	let best: { point: string; type: string; device: string } | null = null;
	for (const line of mounts.split("\n")) {
		const [device, point, type] = line.split(" ");
		if (!device || !point || !type) continue;
		const inside = real === point || real.startsWith(point.endsWith("/") ? point : `${point}/`);
		if (inside && (!best || point.length > best.point.length)) best = { point, type, device };
	}
	return best ? `${best.type} (${best.device} on ${best.point})` : "unknown file system";
}

export function loadAverage(): string {
	return os
		.loadavg()
		.map((n) => n.toFixed(2))
		.join(", ");
}

export function describeMachine(): string {
	const cpus = os.cpus();
	const model = cpus[0]?.model.trim() ?? "unknown CPU";
	const ram = (os.totalmem() / 2 ** 30).toFixed(0);
	return [
		`${cpus.length} cores, ${model}, ${ram} GiB RAM`,
		`Node ${process.version}, ${os.platform()} ${os.release()}`,
		`temp dir ${os.tmpdir()} on ${fileSystemOf(os.tmpdir())}`,
	].join("; ");
}
