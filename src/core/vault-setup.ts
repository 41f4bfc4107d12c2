import { agentFolders } from "./agent-folders";
import type { VaultLayout } from "./layout";

// What an A2A vault is made of (protocol section 1), the plan `a2a init` and the plugin's
// Create registry and group folders both carry out: registry.yaml, then every folder below.

/** agents/, dead-letter/, log/, then the boxes of each registry group. */
export function setupFolders(layout: VaultLayout): string[] {
	const folders = [layout.agentsFolder, layout.deadLetterFolder, layout.logFolder];
	for (const group of layout.groupIds()) folders.push(...layout.boxesOf(group));
	return folders;
}

/**
 * The bases for Obsidian's core Bases plugin that init writes beside the registry (never over a
 * file of the same name): every message with its state, groups, type, priority and times, and
 * every agent by status and group, in the agents folder and the extra agent folders of the
 * plugin's settings (`extraAgentFolders`).
 */
export function setupBases(layout: VaultLayout, extraAgentFolders: readonly string[] = []): { path: string; text: string }[] {
	const root = layout.root;
	// A folder's name is data: `file.inFolder("...")` stays one YAML scalar whatever the name holds.
	const inFolder = (folder: string) => {
		const expression = `file.inFolder(${JSON.stringify(folder)})`;
		return /:\s|\s#/.test(expression) ? `'${expression.replace(/'/g, "''")}'` : expression;
	};
	const folders = agentFolders(layout, extraAgentFolders);
	const inAgentFolders =
		folders.length === 1 ? `    - ${inFolder(folders[0])}` : ["    - or:", ...folders.map((folder) => `        - ${inFolder(folder)}`)].join("\n");
	const messages = `# Every A2A message of this vault (written by A2A Relay's init; edit it freely).
filters:
  and:
    - ${inFolder(root)}
    - file.hasProperty("trace_id")
formulas:
  box: 'if(file.folder.split("/").slice(-2)[0] == "archive" && file.folder.split("/").slice(-1)[0].length == 7, "archive", file.folder.split("/").slice(-1)[0])'
  month: 'if(file.folder.split("/").slice(-2)[0] == "archive" && file.folder.split("/").slice(-1)[0].length == 7, file.folder.split("/").slice(-1)[0], "")'
properties:
  note.state:
    displayName: State
  note.source_group:
    displayName: From
  note.target_group:
    displayName: To
  note.request_type:
    displayName: Type
  note.status:
    displayName: Status
  note.priority:
    displayName: Priority
  note.created:
    displayName: Created
  note.delivered_at:
    displayName: Delivered
  note.expires_at:
    displayName: Expires
  note.error_code:
    displayName: Error
  formula.box:
    displayName: Box
  formula.month:
    displayName: Archived in
views:
  - type: table
    name: In flight
    filters:
      or:
        - state == "delivered"
        - state == "retrying"
        - state == "forwarded"
    order:
      - file.name
      - note.source_group
      - note.target_group
      - note.request_type
      - note.priority
      - note.delivered_at
      - note.expires_at
  - type: table
    name: Dead letters
    filters:
      and:
        - ${inFolder(layout.deadLetterFolder)}
    order:
      - file.name
      - note.error_code
      - note.error_message
      - note.source_group
      - note.target_group
      - note.dead_at
  - type: table
    name: By trace
    groupBy:
      property: note.trace_id
      direction: ASC
    order:
      - file.name
      - note.source_group
      - note.target_group
      - note.request_type
      - note.status
      - note.state
      - note.delivered_at
  - type: table
    name: All messages
    order:
      - file.name
      - note.state
      - note.source_group
      - note.target_group
      - note.request_type
      - note.status
      - note.priority
      - note.created
      - formula.box
      - formula.month
`;
	const agents = `# Every agent note of this vault (written by A2A Relay's init; edit it freely).
filters:
  and:
${inAgentFolders}
    - file.hasProperty("status")
properties:
  note.status:
    displayName: Status
  note.group:
    displayName: Group
  note.agent_role:
    displayName: Role
  note.progress_percent:
    displayName: Progress
  note.last_action:
    displayName: Last action
  note.updated:
    displayName: Updated
views:
  - type: table
    name: By status
    groupBy:
      property: note.status
      direction: ASC
    order:
      - file.name
      - note.group
      - note.agent_role
      - note.progress_percent
      - note.last_action
      - note.updated
  - type: table
    name: By group
    groupBy:
      property: note.group
      direction: ASC
    order:
      - file.name
      - note.status
      - note.progress_percent
      - note.last_action
      - note.updated
`;
	return [
		{ path: `${root}/Messages.base`, text: messages },
		{ path: `${root}/Agents.base`, text: agents },
	];
}
