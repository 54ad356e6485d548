/**
 * The Settings page's MCP routes: the servers with their pins and, in a running hub,
 * their live state; and the owner's acts, the same as `agent mcp` (`hub/mcp/manage.ts`):
 * add a server (started, listed, pinned, or the one sentence why not), see what a server
 * lists now against its pin, pin exactly the list that was shown (a list that changed
 * again meanwhile is refused), remove one. The dashboard's login, same-origin check and
 * CSRF token guard them like every page route: only the owner reaches them. A running
 * hub uses an added or pinned server from its next start.
 *
 * | Route (under `/dashboard/api/`) | What |
 * | --- | --- |
 * | `GET mcp` | `{servers: [{name, transport, target, sandbox, state, live, tools: [...]}]}` |
 * | `POST mcp/add` `{name, command?, args?, url?}` | `{saved, tools}` or 400 with the sentence |
 * | `POST mcp/changes` `{name}` | `{changes, hash, pinned}`: what it lists now against its pin |
 * | `POST mcp/pin` `{name, hash}` | `{saved}`; 409 when the list is no longer the one shown |
 * | `POST mcp/remove` `{name}` | `{saved}` |
 *
 * @module
 */
import { HttpError, json, Router } from "@agent/net";
import type { AgentPaths } from "../paths.ts";
import type { Lang } from "../i18n.ts";
import { loadConfig } from "../config/mod.ts";
import { UserError } from "../user_error.ts";
import {
  addServer,
  definitionTokens,
  listServers,
  mcpSentence as t,
  type McpServerStatus,
  modelToolName,
  pinServer,
  PinStore,
  removeServer,
  serverChanges,
} from "../mcp/mod.ts";
import { findBwrap } from "../sandbox/mod.ts";
import { jsonBody, pageLang } from "./body.ts";
import type { DashboardSession } from "./auth.ts";
import type { DashboardRoutes } from "./types.ts";

/** What the MCP routes read and write. */
export interface McpRouteSources {
  paths: AgentPaths;
  /** The hub's environment (`.env` merged with the process's). */
  env: Record<string, string>;
  lang: Lang;
  /** The running hub's servers, when it has any. */
  live?(): McpServerStatus[];
}

/** The Settings page's MCP routes. */
export function dashboardMcp(sources: McpRouteSources): DashboardRoutes {
  // The owner's acts answer with the sentence `agent mcp` prints.
  const act = (
    work: (ctx: McpActContext, server: string, body: Record<string, unknown>) => Promise<unknown>,
  ) =>
  async (request: Request) => {
    const lang = pageLang(request, sources.lang);
    const ctx = {
      paths: sources.paths,
      env: sources.env,
      lang,
      bwrap: await findBwrap(sources.env),
    };
    const body = await jsonBody(request);
    const server = typeof body.name === "string" ? body.name : "";
    try {
      return json(await work(ctx, server, body));
    } catch (error) {
      if (error instanceof UserError) {
        throw new HttpError(400, "bad_request", { detail: error.message });
      }
      throw error;
    }
  };
  return new Router<DashboardSession>()
    .get(
      "/mcp",
      async (request) => json({ servers: await servers(sources, pageLang(request, sources.lang)) }),
    )
    .post(
      "/mcp/add",
      act(async (ctx, server, body) => {
        const args = Array.isArray(body.args) ? body.args.map(String) : [];
        const added = await addServer(ctx, server, {
          ...(typeof body.command === "string" && body.command !== ""
            ? { command: body.command, args }
            : {}),
          ...(typeof body.url === "string" && body.url !== "" ? { url: body.url } : {}),
        });
        return {
          saved: t(ctx.lang, "added_restart", { name: server, count: added.tools.length }),
          tools: added.tools.length,
        };
      }),
    )
    .post(
      "/mcp/changes",
      act(async (ctx, server) => {
        const now = await serverChanges(ctx, server);
        return { changes: now.changes, hash: now.hash, pinned: now.pinned };
      }),
    )
    .post(
      "/mcp/pin",
      act(async (ctx, server, body) => {
        const now = await serverChanges(ctx, server);
        if (now.hash !== body.hash) {
          throw new HttpError(409, "conflict", {
            detail: t(ctx.lang, "pin_moved", { name: server }),
          });
        }
        await pinServer(ctx, server, now);
        return { saved: t(ctx.lang, "pinned_restart", { name: server }) };
      }),
    )
    .post(
      "/mcp/remove",
      act(async (ctx, server) => {
        await removeServer(ctx, server);
        return { saved: t(ctx.lang, "removed_restart", { name: server }) };
      }),
    );
}

/** What an owner's act on a server works with. */
interface McpActContext {
  paths: AgentPaths;
  env: Record<string, string>;
  lang: Lang;
  bwrap: Awaited<ReturnType<typeof findBwrap>>;
}

async function servers(sources: McpRouteSources, lang: Lang) {
  const config = await loadConfig(sources.paths, { lang });
  const pins = await new PinStore(sources.paths.dataDir).read();
  const live = new Map((sources.live?.() ?? []).map((s) => [s.name, s]));
  return (await listServers(config, sources.paths)).map((line) => {
    const settings = config.mcp.servers[line.name]!;
    const running = live.get(line.name);
    return {
      ...line,
      live: running === undefined
        ? null
        : { state: running.state, sentence: running.says?.(lang) ?? running.sentence ?? null },
      tools: (pins[line.name]?.tools ?? []).map((tool) => ({
        name: tool.name,
        model_name: modelToolName(line.name, tool.name),
        tier: settings.tiers[tool.name] === 1 ? 1 : 2,
        offered: settings.tools === undefined || settings.tools.includes(tool.name),
        tokens: definitionTokens(line.name, tool),
        description: tool.description,
      })),
    };
  });
}
