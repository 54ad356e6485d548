/**
 * The hub control API (loopback only) and its client.
 *
 * @module
 */
export * from "./handler.ts";
export * from "./client.ts";
