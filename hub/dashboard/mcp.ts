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
import { HttpError, json, methodNotAllowed } from "@agent/net";
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
import type { DashboardChat } from "./types.ts";

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
export function dashboardMcp(sources: McpRouteSources): DashboardChat {
  return {
    async route(name, request) {
      if (name !== "mcp" && !name.startsWith("mcp/")) return undefined;
      const lang = pageLang(request, sources.lang);
      const ctx = {
        paths: sources.paths,
        env: sources.env,
        lang,
        bwrap: name === "mcp" ? undefined : await findBwrap(sources.env),
      };
      try {
        if (name === "mcp") {
          if (request.method !== "GET" && request.method !== "HEAD") {
            methodNotAllowed(["GET", "HEAD"]);
          }
          return json({ servers: await servers(sources, lang) });
        }
        if (request.method !== "POST") methodNotAllowed(["POST"]);
        const body = await jsonBody(request);
        const server = typeof body.name === "string" ? body.name : "";
        switch (name) {
          case "mcp/add": {
            const args = Array.isArray(body.args) ? body.args.map(String) : [];
            const added = await addServer(ctx, server, {
              ...(typeof body.command === "string" && body.command !== ""
                ? { command: body.command, args }
                : {}),
              ...(typeof body.url === "string" && body.url !== "" ? { url: body.url } : {}),
            });
            return json({
              saved: t(lang, "added_restart", { name: server, count: added.tools.length }),
              tools: added.tools.length,
            });
          }
          case "mcp/changes": {
            const now = await serverChanges(ctx, server);
            return json({ changes: now.changes, hash: now.hash, pinned: now.pinned });
          }
          case "mcp/pin": {
            const now = await serverChanges(ctx, server);
            if (now.hash !== body.hash) {
              throw new HttpError(409, "conflict", {
                detail: t(lang, "pin_moved", { name: server }),
              });
            }
            await pinServer(ctx, server, now);
            return json({ saved: t(lang, "pinned_restart", { name: server }) });
          }
          case "mcp/remove":
            await removeServer(ctx, server);
            return json({ saved: t(lang, "removed_restart", { name: server }) });
          default:
            throw new HttpError(404, "not_found");
        }
      } catch (error) {
        // The owner's acts answer with the sentence `agent mcp` prints.
        if (error instanceof UserError) {
          throw new HttpError(400, "bad_request", { detail: error.message });
        }
        throw error;
      }
    },
  };
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
