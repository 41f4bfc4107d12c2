/** Vitest setup file (integration project, happy-dom): installs Obsidian's DOM helpers. */
import { installDomHelpers } from "./dom-helpers";

installDomHelpers(window);
