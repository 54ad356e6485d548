/**
 * The hub's MCP servers: started with the hub (each within its `timeout_seconds`, all
 * at once), their tools joined to the desk's, and what the owner must hear (a server
 * whose tools changed since the pin, one that failed) told as a `tool.notice` owner
 * event and logged. Loaded only when `agent.toml` lists a server, so a hub without one
 * never loads the MCP SDK.
 *
 * @module
 */
import type { AgentConfig } from "../config/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { OwnerEventSink } from "../events/mod.ts";
import type { McpServers } from "../mcp/mod_runtime.ts";
import { errorMessage } from "@agent/net/common";

/** Options for {@linkcode startMcpServers}. */
export interface StartMcpOptions {
  config: AgentConfig;
  env: Readonly<Record<string, string | undefined>>;
  paths: AgentPaths;
  lang: Lang;
  logger: Logger;
  /** Where the owner is told (the hub's bus); without, the log only. */
  events?: OwnerEventSink | undefined;
  /** Also tells the owner at once (terminal chat writes it above the prompt). */
  tell?: ((sentence: string) => void) | undefined;
}

/** The configured servers, started; `undefined` when `agent.toml` lists none. */
export async function startMcpServers(options: StartMcpOptions): Promise<McpServers | undefined> {
  const { config, logger, events } = options;
  if (Object.keys(config.mcp.servers).length === 0) return undefined;
  const [{ McpServers }, { findBwrap }] = await Promise.all([
    import("../mcp/servers.ts"),
    import("../sandbox/mod.ts"),
  ]);
  const servers = new McpServers({
    config,
    env: options.env,
    paths: options.paths,
    lang: options.lang,
    bwrap: await findBwrap(options.env),
    notify(sentence, server, said) {
      logger.warn(`mcp ${server}: ${sentence}`);
      options.tell?.(sentence);
      events?.publish({
        ts: Math.floor(Date.now() / 1000),
        type: "tool.notice",
        server,
        text: sentence,
        said,
      })
        .catch((error) =>
          logger.warn(`mcp ${server}: cannot tell the owner: ${errorMessage(error)}`)
        );
    },
  });
  await servers.start();
  for (const status of servers.statuses()) {
    if (status.state === "pinned") {
      logger.info(`mcp ${status.name}: ${status.tools.length} tool(s) in ${status.startMs} ms`);
    }
  }
  return servers;
}
