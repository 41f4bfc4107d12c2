import { DEFAULT_MAX_WAITING } from "../../servers/a2a/waiting-calls";

// `a2a serve --help`, apart from the command (cli/commands/serve.ts), which loads the A2A servers only when it runs.

export const SERVE_HELP = `Usage: a2a serve [--group ID [--grpc-port N]] [--host 127.0.0.1] [--port N] [--token-file F] [--interval MS]
                 [--max-waiting N] [--vault DIR] [--root NAME] [--json]

Serves every local group of the registry as an A2A agent that any A2A client can call (protocol 1.0,
and 0.3 for clients that send no A2A-Version header): its card at
/groups/<id>/.well-known/agent-card.json, its JSON-RPC endpoint at /groups/<id>/, its HTTP+JSON
binding below it (/groups/<id>/message:send...), and the list of groups with their cards at /. With --group ID that one
group is served as a plain agent: its card at /.well-known/agent-card.json, its endpoints at the
root. A message becomes a request note from the gateway group (a2a-gateway,
or the group marked gateway: true) into its outbox; the router (the plugin, or a2a route --watch)
delivers it, and the task follows the note until the answer comes back. a2a serve does not route.
--host        the address to listen on (default 127.0.0.1). Any other address needs --token-file.
--port        the port (default 41241; 0 picks a free one, printed at start)
--token-file  a file holding the bearer token every call must carry (Authorization: Bearer ...)
--interval    how often to look for changes the file system did not report, in ms (default 2000)
--grpc-port   with --group: serve the group over gRPC too, on this port (0 picks one), listed on its card
--max-waiting how many calls that wait for a task (blocking sends, streams) are held at once
              (default ${DEFAULT_MAX_WAITING}); past it a call gets 503 with Retry-After
A group with serve: false in the registry is not served. Ctrl+C stops the server.`;
