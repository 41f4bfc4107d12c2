import skill from "../skills/a2a-communicator/SKILL.md" with { type: "text" };

// The A2A Communicator skill, embedded in the CLI bundle so that `a2a skill install` works from an
// installed package without the repository beside it.

export const SKILL_NAME = "a2a-communicator";
export const SKILL_TEXT: string = skill;
