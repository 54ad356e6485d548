/**
 * What a stdio MCP server receives: `PATH`, `HOME`, `LANG` and the `.env` names its
 * table lists in `env`, nothing else. Not the provider keys, not `AGENT_SPINE_TOKEN`,
 * not the identity: `agent.toml` cannot list the agent's own variables (its check
 * refuses them), and this drops them again should a caller pass one, since a server
 * that reads its environment (or is told to by a prompt) would otherwise hold them.
 *
 * @module
 */
import { isAgentVariable } from "../config/mod.ts";
import type { McpServerConfig } from "../config/mod.ts";

/** The variables every stdio server gets, when set. */
export const BASE_VARIABLES = ["PATH", "HOME", "LANG"] as const;

/**
 * The environment of a server started with `server`'s settings: the base variables
 * from `env` (the merged `.env` and process environment), then the listed names.
 * `home` replaces `HOME` (a sandboxed server's home is its working folder).
 *
 * @example
 * ```ts
 * import { serverEnv } from "./server_env.ts";
 * const env = serverEnv({ env: ["GITHUB_TOKEN", "VENDOR_A_API_KEY"] }, {
 *   PATH: "/usr/bin", HOME: "/root", GITHUB_TOKEN: "g", VENDOR_A_API_KEY: "k", OTHER: "o",
 * });
 * if (JSON.stringify(env) !== '{"PATH":"/usr/bin","HOME":"/root","GITHUB_TOKEN":"g"}') {
 *   throw new Error(JSON.stringify(env));
 * }
 * ```
 */
export function serverEnv(
  server: Pick<McpServerConfig, "env">,
  env: Readonly<Record<string, string | undefined>>,
  home?: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of BASE_VARIABLES) {
    const value = name === "HOME" && home !== undefined ? home : env[name];
    if (value !== undefined) out[name] = value;
  }
  for (const name of server.env) {
    const value = env[name];
    if (value !== undefined && !isAgentVariable(name)) out[name] = value;
  }
  return out;
}

/**
 * The HTTP headers of a Streamable HTTP server: each `headers_env` header with its
 * variable's value (the agent's own variables never).
 */
export function serverHeaders(
  server: Pick<McpServerConfig, "headers_env">,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [header, name] of Object.entries(server.headers_env)) {
    const value = env[name];
    if (value !== undefined && !isAgentVariable(name)) out[header] = value;
  }
  return out;
}
