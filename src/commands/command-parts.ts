import type { UiParts } from "../ui/ui-parts";

// The parts a command may be given: those of the UI (src/ui/ui-parts.ts). Each command names the
// ones it uses (Pick<CommandParts, ...>), so what it depends on is in its signature.

export type CommandParts = UiParts;
