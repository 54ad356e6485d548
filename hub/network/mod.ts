/**
 * The hub's network service: the store, the spine client, the node (the owner's
 * actions), handling of fetched envelopes, the service that keeps the link, and what a
 * network turn is given and returns ({@linkcode TurnAnswerer}; the turn itself is
 * `hub/network_turn/`).
 *
 * @module
 */
export * from "./store/mod.ts";
export * from "./spine_client.ts";
export * from "./node.ts";
export * from "./handle.ts";
export * from "./service.ts";
export * from "./events.ts";
export * from "./setup.ts";
export * from "./identity_file.ts";
export * from "./turn_types.ts";
export { compareVersions, networkCheck } from "./doctor.ts";
export * from "./universe.ts";
export * from "./universe_actions.ts";
export * from "./outbox.ts";
export * from "./digest.ts";
export * from "./send_outcome.ts";
