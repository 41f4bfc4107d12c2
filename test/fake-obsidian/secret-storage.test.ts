// Obsidian's secret storage (since 1.11.4) as the fake copies it: secrets by id on the device (never a
// vault file), ids of lowercase letters, digits and dashes (setSecret throws on another), null for an
// unknown id; SecretComponent lists the stored ids, fires onChange when one is chosen, not on setValue.
import { afterEach, describe, expect, it } from "vitest";
import type { FakeHost } from "../../test-support/fake-obsidian/host";
import { SecretComponent } from "../../test-support/fake-obsidian/index";
import { memoryHost } from "./test-utils";

let host: FakeHost | undefined;
afterEach(async () => {
	await host?.dispose();
	host = undefined;
});

describe("app.secretStorage", () => {
	it("keeps secrets by id, off the vault; refuses an id that is not lowercase letters, digits and dashes", async () => {
		host = await memoryHost({});
		const storage = host.app.secretStorage;
		expect(storage.getSecret("partner-token")).toBeNull();
		storage.setSecret("partner-token", "tok-1");
		storage.setSecret("a1", "tok-2");
		expect(storage.getSecret("partner-token")).toBe("tok-1");
		expect(storage.listSecrets()).toEqual(["a1", "partner-token"]);
		for (const bad of ["Partner", "../x", "a/b", "a.b", "", "a b", "-a", "a-"]) expect(() => storage.setSecret(bad, "x")).toThrow();
		expect(host.app.vault.getFiles()).toEqual([]);
		expect(await host.app.vault.adapter.list("/")).toMatchObject({ files: [] });
	});

	it("SecretComponent: lists the stored ids, fires onChange on a choice and on a created secret, not on setValue", async () => {
		host = await memoryHost({});
		host.app.secretStorage.setSecret("one", "1");
		const el = document.body.createDiv();
		const seen: string[] = [];
		const component = new SecretComponent(host.fakeApp, el).setValue("one").onChange((v) => seen.push(v));
		const select = el.querySelector("select") as HTMLSelectElement;
		expect([...select.options].map((o) => o.value)).toEqual(["", "one"]);
		expect(select.value).toBe("one");
		expect(seen).toEqual([]);
		component.createSecret("two", "2");
		expect(host.app.secretStorage.getSecret("two")).toBe("2");
		expect(select.value).toBe("two");
		select.value = "";
		select.dispatchEvent(new Event("change"));
		expect(seen).toEqual(["two", ""]);
		expect(SecretComponent.of(select)).toBe(component);
		el.remove();
	});
});
