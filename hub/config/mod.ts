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
 * The door names every export: what the CLI and the tests use, and the typed form of
 * the file whole. The shipped prices and the network defaults are the hub's.
 *
 * @module
 */

// The typed form of `agent.toml`.
export type {
  AgentConfig,
  BudgetConfig,
  CacheConfig,
  ComponentsConfig,
  EmailConfig,
  EmailTls,
  FallbackConfig,
  McpConfig,
  McpServerConfig,
  MemoryConfig,
  NetConfig,
  Period,
  PriceConfig,
  ProviderId,
  RoleConfig,
  RoleParams,
  SearchConfig,
  ShellConfig,
  ToolsConfig,
} from "./types.ts";

// What the MCP servers and tools need to know of their settings without parsing the file.
export {
  isAgentVariable,
  mcpServerOf,
  type McpServerTable,
  SEARCH_DEFAULTS,
  SHELL_DEFAULTS,
} from "./tools_config.ts";
export { SERVER_NAME } from "./defaults.ts";

// Reading it: validated, cached until its text changes; a bad file is a `ConfigError`
// (a sentence naming the key).
export { loadConfig, type LoadConfigOptions, validateConfigText } from "./read.ts";
export { ConfigError } from "./error.ts";

// A role by a name someone typed: only the file's own keys, never `constructor`.
export { hasRole, roleNamed } from "./roles.ts";

// Defaults a command needs without reading the file: the hub's port, and the models
// `agent init` writes for each provider.
export { DEFAULT_HUB_PORT, defaultContextTokens } from "./defaults.ts";
export { SHIPPED_MODELS, type ShippedModels, type ShippedProvider } from "./models.ts";
