// The routing extension lives in src/core/a2a-routing.ts: the inbound gateway (here) and the
// outbound forwarder (src/router/forwarder.ts) share every name of it.
export * from "../../../src/core/a2a-routing";
