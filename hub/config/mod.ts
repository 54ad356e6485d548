/**
 * `agent.toml`: its typed form, the defaults, and {@linkcode loadConfig}, which reads
 * and validates it. This door stays light: the TOML parser and the schema load only
 * when the file's text changed since the last validated read. The pure parser
 * (`parseConfig`, `defaultConfig`) and `agent init`'s setup are on the hub's main door.
 *
 * @example
 * ```ts
 * import { DEFAULT_HUB_PORT } from "./mod.ts";
 * if (DEFAULT_HUB_PORT !== 8790) throw new Error();
 * ```
 *
 * @module
 */
export type * from "./types.ts";
export * from "./defaults.ts";
export * from "./error.ts";
export * from "./read.ts";
export * from "./prices.ts";
export * from "./models.ts";
