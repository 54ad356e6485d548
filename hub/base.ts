/**
 * The hub's leaves, the light door a command needs to start: paths, the UI language
 * and its catalogues, the log, crash-safe writes, `.env` files, which credentials each
 * provider needs, and the version. Nothing here loads a parser, an SDK or a database.
 *
 * @example
 * ```ts
 * import { resolvePaths } from "./base.ts";
 * const paths = resolvePaths({ home: "/tmp/agent-home", env: {} });
 * if (paths.configFile !== "/tmp/agent-home/agent.toml") throw new Error(paths.configFile);
 * ```
 *
 * @module
 */
export * from "./paths.ts";
export * from "./i18n.ts";
export * from "./log.ts";
export * from "./atomic_file.ts";
export * from "./env_file.ts";
export * from "./credentials.ts";
export * from "./version.ts";
export * from "./user_error.ts";
export * from "./text.ts";
