// What the browser test's cost page (test/browser/page.ts, `?bench=N`) measures of the agent status
// view in Chromium, for the browser test and `npm run bench` (bench/chromium-bench.ts) alike.

export interface ViewCostFigures {
	rows: number;
	/** Messages the router's index holds (the history, with `?history=N`). */
	indexed: number;
	fullMs: number;
	/** One filter typed into the view's filter box, applied (the box cleared again after). */
	filterMs: number;
	updateMs: number;
	otherRowsReplaced: number;
}
