// The registry `init` writes when there is none: the groups of the A2A Communicator seed, and the
// gateway group `a2a serve` writes outside clients' requests from.

/** The gateway group's description, in the example registry and when init adds the group to an older one. */
export const GATEWAY_DESCRIPTION = "Sends the requests of outside A2A clients (a2a serve)";

export const EXAMPLE_REGISTRY = `# A2A Relay registry: the groups that may exchange messages, and the communication settings.
# Edit it freely; changes take effect at once. See docs/protocol.md.
communication:
  max_hops: 5
  timeout_seconds: 30
  retry_attempts: 3
groups:
  10-backend-group:
    description: Designs the database and the API
  20-frontend-group:
    description: Builds the user interface
  30-devops-group:
    description: Deploys and runs the services
  40-security-group:
    description: Reviews configurations for compliance
  a2a-gateway:
    description: ${GATEWAY_DESCRIPTION}
    gateway: true
`;
