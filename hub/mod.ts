/**
 * The agent itself: configuration, roles and providers, prices, the spend ledger,
 * budgets, sessions, persona, tools, channels, the network service and the hub daemon.
 *
 * @module
 */
export * from "./paths.ts";
export * from "./i18n.ts";
export * from "./log.ts";
export type * from "./config/types.ts";
