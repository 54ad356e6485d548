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
export * from "./config/load.ts";
export * from "./config/prices.ts";
export * from "./config/models.ts";
export * from "./env_file.ts";
export * from "./credentials.ts";
export * from "./components/types.ts";
export * from "./components/registry.ts";
export { BUILTIN_COMPONENTS } from "./components/builtin.ts";
export { DISTRIBUTIONS, VERSION } from "./components/distributions.ts";
export type { Check, CheckResult, DoctorContext } from "./doctor/types.ts";
export * from "./config/setup.ts";
