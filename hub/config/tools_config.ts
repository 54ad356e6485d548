/**
 * `[tools]` and `[mcp]` of `agent.toml` with their defaults, and the rules across keys
 * the schema cannot say: a server has a `command` or a `url`; a server never receives
 * one of the agent's own variables (its keys, `AGENT_SPINE_TOKEN`, the identity);
 * SearXNG needs its `url`.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import type { RawConfig } from "./_schema.ts";
import type {
  BudgetConfig,
  McpConfig,
  McpServerConfig,
  SearchConfig,
  ToolsConfig,
} from "./types.ts";
import { t } from "./_messages.ts";
import { ConfigError } from "./error.ts";
import { DEFAULT_WARN_AT } from "./defaults.ts";
import { AGENT_VARIABLES } from "./setup_files.ts";

/** What each search provider answers at, and costs per call, when `agent.toml` does not say. */
export const SEARCH_DEFAULTS: Readonly<
  Record<SearchConfig["provider"], { url: string | undefined; price_per_call: number }>
> = {
  // Brave Search API's list price, checked 2026-11: $5 per 1,000 calls.
  brave: { url: "https://api.search.brave.com/res/v1/web/search", price_per_call: 0.005 },
  // Self-hosted: the owner's own machine answers.
  searxng: { url: undefined, price_per_call: 0 },
};

/** The defaults of `[tools.shell]`. */
export const SHELL_DEFAULTS = { enabled: false, timeout_seconds: 60, max_output_kb: 64 } as const;

/** An MCP server's `timeout_seconds` when `agent.toml` gives none. */
export const MCP_TIMEOUT_SECONDS = 30;

/** `[tools]` with its defaults. */
export function toolsOf(raw: RawConfig): ToolsConfig {
  const s = raw.tools?.shell ?? {};
  const tools: ToolsConfig = {
    fetch_private: raw.tools?.fetch_private ?? false,
    shell: {
      enabled: s.enabled ?? SHELL_DEFAULTS.enabled,
      timeout_seconds: s.timeout_seconds ?? SHELL_DEFAULTS.timeout_seconds,
      max_output_kb: s.max_output_kb ?? SHELL_DEFAULTS.max_output_kb,
    },
  };
  const r = raw.tools?.search;
  if (r !== undefined) {
    const defaults = SEARCH_DEFAULTS[r.provider];
    const search: SearchConfig = {
      provider: r.provider,
      url: r.url ?? defaults.url ?? "",
      price_per_call: r.price_per_call ?? defaults.price_per_call,
      max_results: r.max_results ?? 5,
    };
    if (r.budget !== undefined) {
      const budget: BudgetConfig = {
        usd: r.budget.usd,
        period: r.budget.period,
        warn_at: r.budget.warn_at ?? DEFAULT_WARN_AT,
      };
      if (r.budget.hard === true) budget.hard = true;
      search.budget = budget;
    }
    tools.search = search;
  }
  return tools;
}

/** `[mcp]` with its defaults. */
export function mcpOf(raw: RawConfig): McpConfig {
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, s] of Object.entries(raw.mcp?.servers ?? {})) servers[name] = mcpServerOf(s);
  return { servers };
}

/** One `[mcp.servers.<name>]` table as `agent.toml` gives it (the schema checked its values). */
export interface McpServerTable {
  command?: string | undefined;
  args?: string[] | undefined;
  url?: string | undefined;
  env?: string[] | undefined;
  headers_env?: Record<string, string> | undefined;
  tools?: string[] | undefined;
  tiers?: Record<string, number> | undefined;
  sandbox?: boolean | undefined;
  sandbox_read?: string[] | undefined;
  sandbox_network?: boolean | undefined;
  timeout_seconds?: number | undefined;
}

/**
 * A server's table with its defaults filled in, as {@linkcode mcpOf} makes it; without
 * the parser, so `agent mcp add` can start a server while the file is validated.
 *
 * @example
 * ```ts
 * import { mcpServerOf } from "./tools_config.ts";
 * const server = mcpServerOf({ command: "npx", args: ["-y", "x"] });
 * if (server.sandbox || server.timeout_seconds !== 30 || server.env.length !== 0) {
 *   throw new Error();
 * }
 * ```
 */
export function mcpServerOf(s: McpServerTable): McpServerConfig {
  const server: McpServerConfig = {
    args: s.args ?? [],
    env: s.env ?? [],
    headers_env: s.headers_env ?? {},
    tiers: s.tiers as Record<string, 1 | 2> | undefined ?? {},
    sandbox: s.sandbox ?? false,
    sandbox_read: s.sandbox_read ?? [],
    sandbox_network: s.sandbox_network ?? false,
    timeout_seconds: s.timeout_seconds ?? MCP_TIMEOUT_SECONDS,
  };
  if (s.command !== undefined) server.command = s.command;
  if (s.url !== undefined) server.url = s.url;
  if (s.tools !== undefined) server.tools = s.tools;
  return server;
}

/**
 * Whether `name` is a variable the agent itself reads, which no server or tool child
 * may receive: every name of `.env.example`, and any `AGENT_` name.
 *
 * @example
 * ```ts
 * import { isAgentVariable } from "./tools_config.ts";
 * if (!isAgentVariable("VENDOR_A_API_KEY") || !isAgentVariable("AGENT_NEW_THING")) throw new Error();
 * if (isAgentVariable("GITHUB_TOKEN")) throw new Error();
 * ```
 */
export function isAgentVariable(name: string): boolean {
  return name.startsWith("AGENT_") || AGENT_VARIABLES.includes(name);
}

/** The rules across keys of `[tools]` and `[mcp]`; throws {@linkcode ConfigError}. */
export function checkTools(
  config: { tools: ToolsConfig; mcp: McpConfig },
  file: string,
  lang: Lang,
): void {
  const search = config.tools.search;
  if (search !== undefined && search.url === "") {
    throw new ConfigError(t(lang, "search_url", { file, provider: search.provider }));
  }
  if (search !== undefined && !/^https?:\/\//.test(search.url)) {
    throw new ConfigError(t(lang, "http_url", { file, table: "[tools.search]", key: "url" }));
  }
  for (const [name, server] of Object.entries(config.mcp.servers)) {
    const table = `[mcp.servers.${name}]`;
    if ((server.command === undefined) === (server.url === undefined)) {
      throw new ConfigError(t(lang, "mcp_command_or_url", { file, table }));
    }
    if (server.url !== undefined && !/^https?:\/\//.test(server.url)) {
      throw new ConfigError(t(lang, "http_url", { file, table, key: "url" }));
    }
    const secret = [...server.env, ...Object.values(server.headers_env)].find(isAgentVariable);
    if (secret !== undefined) {
      throw new ConfigError(t(lang, "mcp_agent_variable", { file, table, name: secret }));
    }
  }
}
