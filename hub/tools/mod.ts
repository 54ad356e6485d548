/**
 * Tools with tiers (1 runs, 2 asks the owner first through the turn's
 * {@linkcode BeforeToolCall} hook), plus the built-in tools (`net_send` among them).
 *
 * @module
 */
export * from "./tool.ts";
export * from "./builtin.ts";
export * from "./net_send.ts";
export * from "./enabled.ts";
export * from "./untrusted.ts";
export * from "./web_search.ts";
export * from "./search_providers.ts";
export * from "./shell.ts";
export { shown } from "./_messages.ts";
