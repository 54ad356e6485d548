/**
 * The hub's side of the agent network: the store, the spine client, the node (the
 * owner's actions), handling of fetched envelopes, the network service, and network
 * turns.
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
export * from "./turn/mod.ts";
export * from "./net_send_tool.ts";
