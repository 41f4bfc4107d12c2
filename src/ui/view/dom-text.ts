// Writing text into the DOM only when it changes, so an update touches nothing that stays the same.
// Everything an agent wrote is set as text (textContent), never parsed as HTML.

export function setTextIfChanged(el: HTMLElement, text: string): void {
	if (el.textContent !== text) el.setText(text);
}

export function setAttrIfChanged(el: HTMLElement, name: string, value: string | null): void {
	if (el.getAttribute(name) === value) return;
	if (value === null) el.removeAttribute(name);
	else el.setAttribute(name, value);
}

/** Shows or hides an element through the `a2a-hidden` class (no inline styles). */
export function setHidden(el: HTMLElement, hidden: boolean): void {
	if (el.classList.contains("a2a-hidden") !== hidden) el.toggleClass("a2a-hidden", hidden);
}
