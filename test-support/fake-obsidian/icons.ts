/** setIcon / getIcon / addIcon: icons are `<svg class="svg-icon" data-icon="id">` markers. */
const SVG_NS = "http://www.w3.org/2000/svg";
const customIcons = new Map<string, string>();

export function addIcon(iconId: string, svgContent: string): void {
	customIcons.set(iconId, svgContent);
}

export function removeIcon(iconId: string): void {
	customIcons.delete(iconId);
}

export function getIconIds(): string[] {
	return [...customIcons.keys()];
}

/** Any non-empty id yields an icon (the real app ships hundreds of Lucide icons). */
export function getIcon(iconId: string): SVGSVGElement | null {
	if (iconId === "") return null;
	const svg = document.createElementNS(SVG_NS, "svg") as SVGSVGElement;
	svg.setAttribute("class", `svg-icon lucide-${iconId}`);
	svg.setAttribute("data-icon", iconId);
	svg.setAttribute("viewBox", "0 0 24 24");
	const custom = customIcons.get(iconId);
	if (custom !== undefined) svg.innerHTML = custom;
	return svg;
}

/** Replaces the element's icon (an existing `.svg-icon` child) with the new one. */
export function setIcon(parent: HTMLElement, iconId: string): void {
	for (const old of Array.from(parent.children)) {
		if (old.tagName.toLowerCase() === "svg" && old.classList.contains("svg-icon")) old.remove();
	}
	const svg = getIcon(iconId);
	if (svg) parent.appendChild(svg);
	parent.setAttribute("data-icon", iconId);
}
