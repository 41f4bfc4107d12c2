import { describe, expect, it } from "vitest";
import { restWaits, rpcWaits } from "../../servers/a2a/waiting-calls";

// Which calls of a2a serve hold their connection (and so count against --max-waiting): read exactly
// as the SDK reads a send's configuration, where any truthy value counts (found by the review of
// issue 27: `blocking: 1` or `"no"` blocked in the SDK but was not counted, so the bound could be passed).

describe("a waiting call, as the SDK sees it", () => {
	it("v0.3 message/send blocks when blocking is truthy, whatever its type", () => {
		for (const blocking of [true, 1, "no", "false", {}, []]) expect(rpcWaits("message/send", { configuration: { blocking } }), JSON.stringify(blocking)).toBe(true);
		for (const blocking of [false, 0, "", null, undefined]) expect(rpcWaits("message/send", { configuration: { blocking } }), String(blocking)).toBe(false);
		expect(rpcWaits("message/send", {})).toBe(false);
		expect(restWaits("POST", "/v1/message:send", { configuration: { blocking: 1 } }, true)).toBe(true);
	});

	it("v1.0 SendMessage blocks unless returnImmediately is truthy", () => {
		expect(rpcWaits("SendMessage", {})).toBe(true);
		for (const returnImmediately of [true, 1, "yes"]) expect(rpcWaits("SendMessage", { configuration: { returnImmediately } })).toBe(false);
		for (const returnImmediately of [false, 0, ""]) expect(rpcWaits("SendMessage", { configuration: { returnImmediately } })).toBe(true);
		expect(rpcWaits("SendMessage", { configuration: { return_immediately: true } })).toBe(false);
		expect(restWaits("POST", "/message:send", { configuration: { returnImmediately: 1 } }, false)).toBe(false);
		expect(rpcWaits("SendStreamingMessage", {})).toBe(true);
		expect(rpcWaits("GetTask", {})).toBe(false);
	});
});
