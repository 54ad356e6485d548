/**
 * MCP servers for the tests: the npm servers `deno install` brought
 * (`@modelcontextprotocol/server-everything` over stdio and Streamable HTTP,
 * `@modelcontextprotocol/server-filesystem`) and the misbehaving fixture, each as an
 * `[mcp.servers.<name>]` table, and a home whose `agent.toml` lists them.
 *
 * @module
 */
import type { McpServerConfig } from "@agent/hub/config";
import { type AgentPaths, resolvePaths } from "@agent/hub/base";
import { freePort } from "../_port.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The fixture server's file. */
export const FIXTURE = `${ROOT}tests/mcp/_fixture_server.ts`;

/** `deno run` of an npm server's file from `node_modules`. */
export function npmServer(pkg: string, ...args: string[]): McpServerConfig {
  return server({
    command: Deno.execPath(),
    args: ["run", "--allow-all", `${ROOT}node_modules/@modelcontextprotocol/${pkg}`, ...args],
  });
}

/** server-everything over stdio. */
export function everything(): McpServerConfig {
  return npmServer("server-everything/dist/index.js", "stdio");
}

/** server-filesystem over `dir`. */
export function filesystem(dir: string): McpServerConfig {
  return npmServer("server-filesystem/dist/index.js", dir);
}

/** The fixture in `mode` (see `_fixture_server.ts`). */
export function fixture(mode: string, arg = "", more: Partial<McpServerConfig> = {}) {
  return server({
    command: Deno.execPath(),
    args: [
      "run",
      "--no-prompt",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      FIXTURE,
      mode,
      ...(arg === "" ? [] : [arg]),
    ],
    ...more,
  });
}

/** A server's table with the defaults `agent.toml` gives. */
export function server(partial: Partial<McpServerConfig>): McpServerConfig {
  return {
    args: [],
    env: [],
    headers_env: {},
    tiers: {},
    sandbox: false,
    sandbox_read: [],
    sandbox_network: false,
    timeout_seconds: 20,
    ...partial,
  };
}

/** Paths of a home at `dir`. */
export function homePaths(dir: string): AgentPaths {
  return resolvePaths({ env: { AGENT_HOME: dir, HOME: dir } });
}

/** The environment a server may be given: PATH and HOME of this process. */
export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/",
    ...extra,
  };
}

/**
 * server-everything over Streamable HTTP on a free port; resolves once it listens.
 * Dispose it to stop it.
 */
export async function everythingHttp(): Promise<AsyncDisposable & { url: string }> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      `${ROOT}node_modules/@modelcontextprotocol/server-everything/dist/index.js`,
      "streamableHttp",
    ],
    env: { PORT: String(port) },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const deadline = Date.now() + 30_000;
  while (!seen.includes("listening on port")) {
    if (Date.now() > deadline) throw new Error(`server-everything did not listen: ${seen}`);
    const { done, value } = await reader.read();
    if (done) throw new Error(`server-everything exited: ${seen}`);
    seen += value;
  }
  // Keep reading so the child never blocks on a full pipe.
  void (async () => {
    try {
      while (!(await reader.read()).done) { /* drain */ }
    } catch { /* closed */ }
  })();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
      await child.status;
      await reader.cancel().catch(() => {});
    },
  };
}
