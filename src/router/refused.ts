// An action the relay refuses, with nothing written: an unknown id or group, a message that is not
// the caller's to act on, a message the router would reject. The message says what to do instead;
// `field` names the argument at fault when one is (the CLI shows it as its flag, the MCP server as
// the tool argument).

export class Refused extends Error {
	constructor(
		message: string,
		readonly field?: string,
	) {
		super(message);
		this.name = "Refused";
	}
}
