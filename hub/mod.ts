/**
 * The agent itself: configuration, roles and providers, prices, the spend ledger,
 * budgets, sessions, persona, tools, sub-agents, the network service and network
 * turns, the agent, the channels, and the hub daemon with its control API.
 *
 * This is the whole hub, and importing it loads every part (the model SDKs among
 * them). A command that must start fast imports a light door instead:
 * `@agent/hub/base` (paths, language, log, `.env`, credentials, version,
 * `UserError`), `@agent/hub/config` (`agent.toml`), `@agent/hub/money` (ledger,
 * budgets, spend) or `@agent/hub/doctor` (the doctor's checks).
 *
 * @module
 */
export * from "./base.ts";
export * from "./config/mod.ts";
export * from "./config/parse.ts";
export * from "./config/setup.ts";
export * from "./config/template.ts";
export * from "./money/mod.ts";
export * from "./models/mod.ts";
export * from "./sessions/mod.ts";
export * from "./persona/mod.ts";
export * from "./tools/mod.ts";
export * from "./subs/mod.ts";
export * from "./components/mod.ts";
export * from "./doctor/mod.ts";
export * from "./events/mod.ts";
export * from "./network/mod.ts";
export * from "./agent/mod.ts";
export * from "./desk/mod.ts";
export * from "./channels/chat/mod.ts";
export * from "./network_turn/mod.ts";
export * from "./cloud/mod.ts";
export * from "./app/mod.ts";
export * from "./daemon/mod.ts";
export * from "./control/mod.ts";
