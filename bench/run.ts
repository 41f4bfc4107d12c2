import * as os from "node:os";
import { runRouteBench } from "./route-bench";

// The benchmark table of the README's performance section. Sizes can be scaled down with
// `npm run bench -- --quick` for a fast look; the published figures use the full sizes.

const quick = process.argv.includes("--quick");

function machine(): string {
	const cpu = os.cpus()[0]?.model ?? "unknown CPU";
	return `${os.cpus().length} x ${cpu.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

async function main(): Promise<void> {
	console.log(`A2A Relay benchmarks on ${machine()}${quick ? " (quick sizes)" : ""}`);
	const route = await runRouteBench(quick ? 500 : 5000);
	console.log(`| routing throughput (Node adapter, ${route.messages} messages, 10 groups) | ${route.routerPerSecond.toFixed(0)} msg/s | baseline ${route.baselinePerSecond.toFixed(0)} ops/s | ratio ${route.ratio.toFixed(2)} (target <= 3) |`);
	if (route.delivered !== route.messages) console.log(`  !! only ${route.delivered} of ${route.messages} delivered`);
}

void main();
