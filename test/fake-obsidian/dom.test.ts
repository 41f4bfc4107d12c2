import { afterEach, describe, expect, it } from "vitest";
import type { FakeHost } from "../../test-support/fake-obsidian/host";
import {
	AbstractInputSuggest,
	debounce,
	FuzzySuggestModal,
	Keymap,
	Menu,
	Modal,
	Notice,
	sanitizeHTMLToDom,
	Setting,
	setIcon,
	type App,
	type ButtonComponent,
	type DropdownComponent,
	type SliderComponent,
	type TextComponent,
	type ToggleComponent,
} from "../../test-support/fake-obsidian/index";
import { memoryHost, sleep } from "./test-utils";

let host: FakeHost | undefined;
afterEach(async () => {
	await host?.dispose();
	host = undefined;
	document.body.empty();
});

function input(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
	el.value = value;
	el.dispatchEvent(new Event("input", { bubbles: true }));
}

describe("DOM helpers (happy-dom)", () => {
	it("createEl/createDiv/createSpan take cls, text, attr, parent and prepend", () => {
		const root = document.body.createDiv("root");
		const a = root.createEl("a", { cls: ["x", "y"], text: "link", attr: { "data-id": 5, hidden: null }, href: "#h", title: "T" });
		expect(a.parentElement).toBe(root);
		expect(a.className).toBe("x y");
		expect(a.textContent).toBe("link");
		expect(a.getAttribute("data-id")).toBe("5");
		expect(a.getAttribute("href")).toBe("#h");
		expect(a.getAttribute("title")).toBe("T");
		const first = root.createSpan({ cls: "first", prepend: true });
		expect(root.firstChild).toBe(first);
		const inputEl = root.createEl("input", { type: "text", value: "v", placeholder: "p" });
		expect(inputEl.value).toBe("v");
		expect(inputEl.placeholder).toBe("p");
		let seen: HTMLElement | null = null;
		const orphan = createDiv({ cls: "orphan" }, (el) => (seen = el));
		expect(orphan.parentElement).toBeNull();
		expect(seen).toBe(orphan);
		const other = createDiv();
		const withParent = createEl("p", { parent: other, text: "in" });
		expect(withParent.parentElement).toBe(other);
		const svg = root.createSvg("svg", { cls: "icon" });
		expect(svg.namespaceURI).toBe("http://www.w3.org/2000/svg");
		expect(fish(".orphan")).toBeNull();
		expect(fishAll(".first").length).toBe(1);
		const frag = createFragment((f) => f.createSpan({ text: "frag" }));
		expect(frag.textContent).toBe("frag");
	});

	it("empty, setText, appendText, classes and attributes", () => {
		const el = document.body.createDiv();
		el.createSpan();
		el.createSpan();
		el.empty();
		expect(el.childNodes.length).toBe(0);
		el.setText("one");
		el.appendText(" two");
		expect(el.getText()).toBe("one two");
		el.setText(createFragment((f) => f.createEl("b", { text: "bold" })));
		expect(el.innerHTML).toBe("<b>bold</b>");
		el.addClass("a", "b");
		el.addClasses(["c"]);
		el.removeClass("a");
		el.toggleClass("d", true);
		el.toggleClass(["b", "c"], false);
		expect(el.className).toBe("d");
		expect(el.hasClass("d")).toBe(true);
		el.setAttr("aria-label", "x");
		el.setAttrs({ role: "button", tabindex: 0 });
		expect(el.getAttr("aria-label")).toBe("x");
		el.setAttr("role", null);
		expect(el.getAttr("role")).toBeNull();
		expect(el.find("b")?.textContent).toBe("bold");
		expect(el.findAll("i")).toEqual([]);
		el.detach();
		expect(el.isConnected).toBe(false);
	});

	it("isShown is false when detached, hidden, display:none, or inside such an ancestor", () => {
		const outer = document.body.createDiv();
		const inner = outer.createDiv();
		expect(inner.isShown()).toBe(true);
		outer.hide();
		expect(inner.isShown()).toBe(false);
		outer.show();
		expect(inner.isShown()).toBe(true);
		outer.setAttribute("hidden", "");
		expect(inner.isShown()).toBe(false);
		outer.removeAttribute("hidden");
		inner.toggle(false);
		expect(inner.isShown()).toBe(false);
		inner.toggle(true);
		expect(inner.isShown()).toBe(true);
		expect(createDiv().isShown()).toBe(false);
	});

	it("setIcon puts an svg marker with data-icon; sanitizeHTMLToDom strips scripts", () => {
		const el = document.body.createDiv();
		setIcon(el, "dice");
		setIcon(el, "trash");
		expect(el.querySelectorAll("svg").length).toBe(1);
		expect(el.querySelector("svg")?.getAttribute("data-icon")).toBe("trash");
		const frag = sanitizeHTMLToDom('<b onclick="x()">ok</b><script>bad()</script><a href="javascript:x">l</a>');
		const div = createDiv();
		div.appendChild(frag);
		expect(div.innerHTML).toBe("<b>ok</b><a>l</a>");
	});
});

class TestModal extends Modal {
	log: string[] = [];
	onOpen(): void {
		this.log.push("open");
		this.setTitle("Title");
		this.contentEl.createEl("p", { text: "body" });
	}
	onClose(): void {
		this.log.push("close");
		this.contentEl.empty();
	}
}

describe("Modal", () => {
	it("opens into the body, closes on Escape and removes its DOM", async () => {
		host = memoryHost();
		const modal = new TestModal(host.fakeApp);
		modal.open();
		expect(modal.containerEl.isConnected).toBe(true);
		expect(modal.titleEl.textContent).toBe("Title");
		expect(host.openModals()).toEqual([modal]);
		modal.contentEl.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
		expect(modal.log).toEqual(["open", "close"]);
		expect(modal.containerEl.isConnected).toBe(false);
		expect(host.openModals()).toEqual([]);
		modal.open();
		(modal.modalEl.querySelector(".modal-close-button") as HTMLElement).click();
		expect(modal.log).toEqual(["open", "close", "open", "close"]);
	});

	it("a keydown other than Escape does not close it", () => {
		host = memoryHost();
		const modal = new TestModal(host.fakeApp);
		modal.open();
		document.dispatchEvent(new KeyboardEvent("keydown", { key: "a", bubbles: true }));
		expect(modal.isOpen).toBe(true);
		modal.close();
	});
});

describe("Setting components fire onChange from DOM events", () => {
	it("text, text area, dropdown, toggle, slider, button, extra button, search", async () => {
		host = memoryHost();
		const container = document.body.createDiv();
		const changes: unknown[] = [];
		let text: TextComponent | undefined;
		let dropdown: DropdownComponent | undefined;
		let toggle: ToggleComponent | undefined;
		let slider: SliderComponent | undefined;
		let button: ButtonComponent | undefined;
		const setting = new Setting(container)
			.setName("Name")
			.setDesc("Description")
			.addText((c) => (text = c.setPlaceholder("type").setValue("init").onChange((v) => changes.push(["text", v]))))
			.addTextArea((c) => c.onChange((v) => changes.push(["area", v])))
			.addDropdown((c) => (dropdown = c.addOptions({ a: "A", b: "B" }).setValue("a").onChange((v) => changes.push(["dropdown", v]))))
			.addToggle((c) => (toggle = c.setValue(false).onChange((v) => changes.push(["toggle", v]))))
			.addSlider((c) => (slider = c.setLimits(0, 10, 1).setValue(3).onChange((v) => changes.push(["slider", v]))))
			.addButton((c) => (button = c.setButtonText("Go").setCta().onClick(() => changes.push(["button"]))))
			.addExtraButton((c) => c.setIcon("gear").onClick(() => changes.push(["extra"])))
			.addSearch((c) => c.onChange((v) => changes.push(["search", v])));
		expect(setting.nameEl.textContent).toBe("Name");
		expect(setting.descEl.textContent).toBe("Description");
		expect(setting.settingEl.parentElement).toBe(container);
		expect(text?.inputEl.placeholder).toBe("type");
		expect(changes).toEqual([]);
		input(container.querySelector("input[type=text]") as HTMLInputElement, "typed");
		input(container.querySelector("textarea") as HTMLTextAreaElement, "area text");
		const select = container.querySelector("select") as HTMLSelectElement;
		select.value = "b";
		select.dispatchEvent(new Event("change"));
		(container.querySelector(".checkbox-container") as HTMLElement).click();
		const range = container.querySelector("input[type=range]") as HTMLInputElement;
		range.value = "7";
		range.dispatchEvent(new Event("change"));
		(container.querySelector("button") as HTMLButtonElement).click();
		(container.querySelector(".extra-setting-button") as HTMLElement).click();
		input(container.querySelector("input[type=search]") as HTMLInputElement, "q");
		expect(changes).toEqual([
			["text", "typed"],
			["area", "area text"],
			["dropdown", "b"],
			["toggle", true],
			["slider", 7],
			["button"],
			["extra"],
			["search", "q"],
		]);
		expect(text?.getValue()).toBe("typed");
		expect(dropdown?.getValue()).toBe("b");
		expect(toggle?.getValue()).toBe(true);
		expect(toggle?.toggleEl.hasClass("is-enabled")).toBe(true);
		expect(slider?.getValue()).toBe(7);
		expect(button?.buttonEl.hasClass("mod-cta")).toBe(true);
		setting.setDisabled(true);
		(container.querySelector("button") as HTMLButtonElement).click();
		(container.querySelector(".checkbox-container") as HTMLElement).click();
		expect(changes.length).toBe(8);
		expect(text?.inputEl.disabled).toBe(true);
	});
});

describe("Notice", () => {
	it("records every message for the host, shows it in the DOM and hides", () => {
		host = memoryHost();
		const n = new Notice("Saved", 0);
		expect(n.noticeEl.isConnected).toBe(true);
		expect(n.messageEl.textContent).toBe("Saved");
		n.setMessage("Saved twice");
		n.hide();
		expect(n.noticeEl.isConnected).toBe(false);
		expect(host.notices).toEqual(["Saved", "Saved twice"]);
		expect(Notice.history.slice(-2).map((r) => r.message)).toEqual(["Saved", "Saved twice"]);
	});
});

class FruitSuggest extends AbstractInputSuggest<string> {
	protected getSuggestions(query: string): string[] {
		return ["apple", "banana", "cherry"].filter((f) => f.includes(query));
	}
	renderSuggestion(value: string, el: HTMLElement): void {
		el.setText(value);
	}
}

class FruitModal extends FuzzySuggestModal<string> {
	chosen: string[] = [];
	getItems(): string[] {
		return ["apple", "banana", "cherry"];
	}
	getItemText(item: string): string {
		return item;
	}
	onChooseItem(item: string): void {
		this.chosen.push(item);
	}
}

describe("suggesters", () => {
	it("AbstractInputSuggest lists suggestions under the input and a click selects", async () => {
		host = memoryHost();
		const inputEl = document.body.createEl("input", { type: "text" });
		const picked: string[] = [];
		const suggest = new FruitSuggest(host.fakeApp as App, inputEl).onSelect((value) => {
			picked.push(value);
			suggest.setValue(value);
			suggest.close();
		});
		input(inputEl, "an");
		expect(suggest.shownSuggestions).toEqual(["banana"]);
		expect(inputEl.nextElementSibling).toBe(suggest.suggestEl);
		(suggest.suggestEl.querySelector(".suggestion-item") as HTMLElement).click();
		expect(picked).toEqual(["banana"]);
		expect(inputEl.value).toBe("banana");
		expect(suggest.suggestEl.isConnected).toBe(false);
		input(inputEl, "");
		inputEl.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowDown" }));
		inputEl.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
		expect(picked).toEqual(["banana", "banana"]);
	});

	it("FuzzySuggestModal filters on input and Enter chooses the selected item", () => {
		host = memoryHost();
		const modal = new FruitModal(host.fakeApp as App);
		modal.open();
		expect(modal.resultContainerEl.querySelectorAll(".suggestion-item").length).toBe(3);
		input(modal.inputEl, "chy");
		expect(modal.shownSuggestions.map((m) => m.item)).toEqual(["cherry"]);
		modal.inputEl.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
		expect(modal.chosen).toEqual(["cherry"]);
		expect(modal.isOpen).toBe(false);
	});
});

describe("Menu, debounce, Keymap", () => {
	it("Menu shows items and a click runs the item and hides the menu", () => {
		const clicked: string[] = [];
		const menu = new Menu()
			.addItem((i) => i.setTitle("One").setIcon("x").onClick(() => clicked.push("one")))
			.addSeparator()
			.addItem((i) => i.setTitle("Two").onClick(() => clicked.push("two")));
		menu.showAtPosition({ x: 1, y: 2 });
		expect(menu.titles).toEqual(["One", "Two"]);
		expect(menu.dom.isConnected).toBe(true);
		(menu.dom.querySelectorAll(".menu-item")[1] as HTMLElement).click();
		expect(clicked).toEqual(["two"]);
		expect(menu.dom.isConnected).toBe(false);
	});

	it("debounce coalesces calls, run() flushes, cancel() drops, settled() waits for it", async () => {
		host = memoryHost();
		const calls: number[] = [];
		const d = debounce((n: number) => calls.push(n), 20, true);
		d(1);
		d(2);
		d(3);
		expect(calls).toEqual([]);
		await host.settled();
		expect(calls).toEqual([3]);
		d(4);
		d.run();
		expect(calls).toEqual([3, 4]);
		d(5);
		d.cancel();
		await sleep(30);
		expect(calls).toEqual([3, 4]);
	});

	it("Keymap.isModEvent returns 'tab' with Ctrl/Meta, false otherwise", () => {
		expect(Keymap.isModEvent(new MouseEvent("click", { ctrlKey: true }))).toBe("tab");
		expect(Keymap.isModEvent(new KeyboardEvent("keydown", { metaKey: true }))).toBe("tab");
		expect(Keymap.isModEvent(new MouseEvent("click"))).toBe(false);
		expect(Keymap.isModEvent(null)).toBe(false);
	});
});
