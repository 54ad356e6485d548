/**
 * The hub control API (loopback only), its clients, and its event stream.
 *
 * @module
 */
export * from "./handler.ts";
export * from "./client.ts";
export * from "./events_client.ts";
export * from "./follow.ts";
export * from "./token.ts";
