/**
 * The owner's acts on MCP servers, for `agent mcp` and the dashboard's Settings: add a
 * server (start it, list its tools, write its table into `agent.toml`, pin the list),
 * pin it again after a change (with what changed), remove it, try it, and list them.
 * Nothing else adds or pins a server: no tool reaches `agent.toml` or the pins, jobs
 * and network turns have no way here, and the control API serves these only to the
 * owner's token.
 *
 * @module
 */
import type { AgentConfig, McpServerConfig } from "../config/mod.ts";
import { loadConfig, mcpServerOf, SERVER_NAME, validateConfigText } from "../config/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { Lang } from "../i18n.ts";
import { UserError } from "../user_error.ts";
import { writeFileAtomic } from "../atomic_file.ts";
import type { McpConnection, McpConnectOptions } from "./connection.ts";
import {
  type ListedTool,
  PinStore,
  type ToolChange,
  toolListChanges,
  toolListHash,
} from "./pins.ts";
import {
  addServerTable,
  hasServerTable,
  removeServerTable,
  type ServerSpec,
} from "./config_file.ts";
import { findBwrap } from "../sandbox/mod.ts";
import { modelToolName, resultText } from "./tool_text.ts";
import { t } from "./_messages.ts";

export type { ServerSpec } from "./config_file.ts";

/** What the acts need. */
export interface McpManageContext {
  paths: AgentPaths;
  /** The merged `.env` and process environment. */
  env: Readonly<Record<string, string | undefined>>;
  lang: Lang;
  /**
   * The `bwrap` program, for sandboxed servers. @default looked up when a server with
   * `sandbox = true` starts (a run that starts none spends nothing on it)
   */
  bwrap?: string | undefined;
  fetch?: typeof fetch | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
}

/** A server added or pinned. */
export interface PinnedServer {
  name: string;
  tools: ListedTool[];
  hash: string;
  /** What changed since the previous pin (all `added` for a new server). */
  changes: ToolChange[];
  /** Milliseconds the start and listing took. */
  startMs: number;
}

/** One line of {@linkcode listServers}. */
export interface ServerLine {
  name: string;
  transport: "stdio" | "http";
  /** The command and its arguments, or the URL. */
  target: string;
  sandbox: boolean;
  /** From the pins alone (nothing is started). */
  state: "pinned" | "changed" | "unpinned";
  /** Tools in the pinned list. */
  tools: number;
  pinnedAt?: number;
}

/**
 * Adds server `name`: starts it, lists its tools, then writes its table into
 * `agent.toml` and pins the list. A server that does not start is not added. Throws
 * {@linkcode UserError} (the sentence; exit 2 for a bad name or a name in use).
 */
export async function addServer(
  ctx: McpManageContext,
  name: string,
  spec: ServerSpec,
): Promise<PinnedServer> {
  if (!SERVER_NAME.test(name)) throw new UserError(t(ctx.lang, "bad_name", { name }), 2);
  if ((spec.command === undefined) === (spec.url === undefined)) {
    throw new UserError(t(ctx.lang, "command_or_url"), 2);
  }
  const text = await readConfigText(ctx);
  if (hasServerTable(text, name)) throw new UserError(t(ctx.lang, "exists", { name }), 2);
  const next = addServerTable(text, name, spec);
  // The server starts first, and the files are validated while it does (loading the
  // parser takes a few tenths of a second of CPU); a file that does not validate, or a
  // server of that name written some other way, stops it.
  const stop = new AbortController();
  let started = () => {};
  const running = new Promise<void>((resolve) => started = resolve);
  const listing = listOnce(ctx, name, mcpServerOf(spec), {
    signal: stop.signal,
    onStarted: started,
  });
  // Told below, once the file's own sentence had its turn.
  listing.catch(() => {}).finally(started);
  await running;
  try {
    const before = await loadConfig(ctx.paths, { lang: ctx.lang });
    if (Object.hasOwn(before.mcp.servers, name)) {
      throw new UserError(t(ctx.lang, "exists", { name }), 2);
    }
    // Validated once, and kept so that the `agent mcp list` after this reads it as is.
    await validateConfigText(ctx.paths, next, { lang: ctx.lang });
  } catch (error) {
    stop.abort();
    await listing.catch(() => {});
    throw error;
  }
  const listed = await listing;
  await writeFileAtomic(ctx.paths.configFile, next, { mode: await modeOf(ctx.paths.configFile) });
  const hash = await new PinStore(ctx.paths.dataDir).pin(name, listed.tools, nowMs(ctx));
  return {
    name,
    tools: listed.tools,
    hash,
    changes: toolListChanges([], listed.tools),
    startMs: listed.startMs,
  };
}

/**
 * What server `name` lists now against its pin: the changes and the new list, without
 * pinning ({@linkcode pinServer} pins).
 */
export async function serverChanges(
  ctx: McpManageContext,
  name: string,
): Promise<PinnedServer & { pinned: boolean }> {
  const server = await configured(ctx, name);
  const listed = await listOnce(ctx, name, server);
  const pin = (await new PinStore(ctx.paths.dataDir).read())[name];
  return {
    name,
    tools: listed.tools,
    hash: await toolListHash(listed.tools),
    changes: toolListChanges(pin?.tools ?? [], listed.tools),
    startMs: listed.startMs,
    pinned: pin !== undefined,
  };
}

/** Pins what server `name` lists now (the owner saw the changes); returns them. */
export async function pinServer(
  ctx: McpManageContext,
  name: string,
  seen?: PinnedServer,
): Promise<PinnedServer> {
  const now = seen ?? await serverChanges(ctx, name);
  const hash = await new PinStore(ctx.paths.dataDir).pin(name, now.tools, nowMs(ctx));
  return { ...now, hash };
}

/** Removes server `name`'s table from `agent.toml` and its pin. */
export async function removeServer(ctx: McpManageContext, name: string): Promise<void> {
  await configured(ctx, name);
  const text = await readConfigText(ctx);
  const next = removeServerTable(text, name);
  const { parseConfig } = await import("../config/parse.ts");
  const after = parseConfig(next, "agent.toml", { lang: ctx.lang });
  // A server written some other way (an inline table) is left for the owner's editor.
  if (Object.hasOwn(after.mcp.servers, name)) {
    throw new UserError(t(ctx.lang, "remove_by_hand", { name }), 1);
  }
  await writeFileAtomic(ctx.paths.configFile, next, { mode: await modeOf(ctx.paths.configFile) });
  await new PinStore(ctx.paths.dataDir).remove(name);
}

/**
 * Starts server `name`, lists its tools and, with `tool`, calls it with `args`: the
 * owner trying a server (`agent mcp test`). The pin is not needed and not changed.
 */
export async function testServer(
  ctx: McpManageContext,
  name: string,
  call?: { tool: string; args: unknown },
): Promise<{ tools: ListedTool[]; startMs: number; result?: string; isError?: boolean }> {
  const server = await configured(ctx, name);
  const connection = await connect(ctx, name, server);
  try {
    if (call === undefined) return { tools: connection.tools, startMs: connection.startMs };
    if (!connection.tools.some((tool) => tool.name === call.tool)) {
      throw new UserError(t(ctx.lang, "no_tool", { name, tool: call.tool }), 2);
    }
    let answer;
    try {
      answer = await connection.call(call.tool, call.args);
    } catch (error) {
      const { McpServerError } = await import("./connection.ts");
      if (error instanceof McpServerError) throw new UserError(error.sentence(ctx.lang), 1);
      throw error;
    }
    return {
      tools: connection.tools,
      startMs: connection.startMs,
      result: resultText(answer),
      ...(answer.isError === true ? { isError: true } : {}),
    };
  } finally {
    // A server that only listed its tools did no work worth waiting for.
    await connection.close({ prompt: call === undefined });
  }
}

/** The configured servers with their pins' state; nothing is started. */
export async function listServers(
  config: Pick<AgentConfig, "mcp">,
  paths: AgentPaths,
): Promise<ServerLine[]> {
  const pins = await new PinStore(paths.dataDir).read();
  return Object.entries(config.mcp.servers).map(([name, server]) => {
    const pin = pins[name];
    return {
      name,
      transport: server.url !== undefined ? "http" : "stdio",
      target: server.url ?? [server.command ?? "", ...server.args].join(" "),
      sandbox: server.sandbox,
      state: pin === undefined ? "unpinned" : pin.changed !== undefined ? "changed" : "pinned",
      tools: pin?.tools.length ?? 0,
      ...(pin !== undefined ? { pinnedAt: pin.pinned_at } : {}),
    };
  });
}

/** Server `name` of `agent.toml`, or the sentence that it has none by that name. */
export async function configured(ctx: McpManageContext, name: string): Promise<McpServerConfig> {
  const config = await loadConfig(ctx.paths, { lang: ctx.lang });
  const server = config.mcp.servers[name];
  if (server === undefined) {
    const names = Object.keys(config.mcp.servers).join(", ") || "-";
    throw new UserError(t(ctx.lang, "unknown", { name, names }), 2);
  }
  return server;
}

/** Starts the server, lists its tools and stops it at once (it did nothing else). */
async function listOnce(
  ctx: McpManageContext,
  name: string,
  server: McpServerConfig,
  more: Pick<McpConnectOptions, "signal" | "onStarted"> = {},
) {
  const connection = await connect(ctx, name, server, more);
  await connection.close({ prompt: true });
  return { tools: connection.tools, startMs: connection.startMs };
}

async function connect(
  ctx: McpManageContext,
  name: string,
  server: McpServerConfig,
  more: Pick<McpConnectOptions, "signal" | "onStarted"> = {},
): Promise<McpConnection> {
  const options: McpConnectOptions = {
    name,
    server,
    env: ctx.env,
    paths: ctx.paths,
    bwrap: ctx.bwrap ?? (server.sandbox ? await findBwrap(ctx.env) : undefined),
    fetch: ctx.fetch,
    ...more,
  };
  // The SDK loads with the first connection: listing and showing need none.
  const { McpConnection, McpServerError } = await import("./connection.ts");
  try {
    return await McpConnection.open(options);
  } catch (error) {
    if (error instanceof McpServerError) throw new UserError(error.sentence(ctx.lang), 1);
    throw error;
  }
}

/** `agent.toml`'s text, unparsed; a file that cannot be read gets loadConfig's sentence. */
async function readConfigText(ctx: McpManageContext): Promise<string> {
  try {
    return await Deno.readTextFile(ctx.paths.configFile);
  } catch (error) {
    await loadConfig(ctx.paths, { lang: ctx.lang });
    throw error;
  }
}

async function modeOf(file: string): Promise<number> {
  try {
    return (await Deno.stat(file)).mode! & 0o777;
  } catch {
    return 0o600;
  }
}

function nowMs(ctx: McpManageContext): number {
  return (ctx.now ?? Date.now)();
}

/** One MCP tool as `agent components` lists it. */
export interface McpToolLine {
  /** The model's name (`<server>__<tool>`), or the server's alone when its list is unknown. */
  name: string;
  server: string;
  tier: 1 | 2;
  /** `pinned` (offered), `changed` or `unpinned` (disabled), from the pins. */
  state: "pinned" | "changed" | "unpinned";
}

/** Every MCP tool of the configured servers, from their pins (nothing is started). */
export async function mcpToolLines(
  config: Pick<AgentConfig, "mcp">,
  paths: AgentPaths,
): Promise<McpToolLine[]> {
  const pins = await new PinStore(paths.dataDir).read();
  const lines: McpToolLine[] = [];
  for (const [server, settings] of Object.entries(config.mcp.servers)) {
    const pin = pins[server];
    if (pin === undefined) {
      lines.push({ name: server, server, tier: 2, state: "unpinned" });
      continue;
    }
    const state = pin.changed !== undefined ? "changed" : "pinned";
    for (const tool of pin.tools) {
      if (settings.tools !== undefined && !settings.tools.includes(tool.name)) continue;
      lines.push({
        name: modelToolName(server, tool.name),
        server,
        tier: settings.tiers[tool.name] === 1 ? 1 : 2,
        state,
      });
    }
  }
  return lines;
}
