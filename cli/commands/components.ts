/**
 * `agent components [--json]`: one block per component group, one line per
 * component: name, distribution, version, enabled/disabled and a note.
 *
 * @module
 */
import type { Command } from "commander";
import type { Lang } from "@agent/hub/base";
import { ConfigError } from "@agent/hub/config";
import type { AgentConfig } from "@agent/hub/config";
import { COMPONENT_GROUPS, type ComponentInfo, loadComponents } from "@agent/hub/doctor";
import { errorLine } from "@agent/net/common";
import type { CommandModule } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { t } from "./_messages.ts";

/** One line of `agent components --json`. */
export interface ComponentLine {
  name: string;
  distribution: string;
  version: string;
  enabled: boolean;
  note: string;
  source: string;
}

/** `agent components`. */
export const command: CommandModule = {
  name: "components",
  summary: { en: t("en", "components_summary"), tr: t("tr", "components_summary") },
  configure(cmd: Command, lang: Lang) {
    cmd.option("--json", t(lang, "opt_json"));
  },
  async run(ctx, _args, opts) {
    let config: AgentConfig | undefined;
    try {
      config = await ctx.config();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      // A missing file is normal before init; an invalid one is worth a word.
      if (error.kind !== "missing") {
        ctx.err(t(ctx.lang, "config_problem", { detail: error.message }));
      }
    }
    const registry = await loadComponents(config, ctx.paths, {
      lang: ctx.lang,
      extraBuiltins: ctx.commandNames.map((name) => ({ group: "agent.commands", name })),
    });
    // Extra components are loaded once here so a broken one shows its error in its line.
    const loadErrors = new Map<ComponentInfo, string>();
    for (const c of registry.components) {
      if (c.source === "builtin" || c.load === undefined || !c.enabled) continue;
      try {
        await c.load();
      } catch (error) {
        loadErrors.set(c, errorLine(error));
      }
    }
    const groups: Record<string, ComponentLine[]> = {};
    for (const group of COMPONENT_GROUPS) {
      groups[group] = registry.components
        .filter((c) => c.group === group)
        .map((c) => {
          const line = lineOf(c, config, ctx.lang);
          const error = loadErrors.get(c);
          if (error !== undefined) line.note = t(ctx.lang, "note_error", { detail: error });
          return line;
        });
    }
    // Each MCP server's tools join the tools group, with their server, tier and state.
    if (config !== undefined && Object.keys(config.mcp.servers).length > 0) {
      const { mcpToolLines } = await import("@agent/hub/mcp");
      const failed = await failedServers(ctx, config);
      for (const tool of await mcpToolLines(config, ctx.paths)) {
        const sentence = failed.get(tool.server);
        if (sentence !== undefined) {
          // A running hub could not start it: its tools are off until it starts.
          groups["agent.tools"]!.push({
            name: tool.name,
            distribution: `mcp:${tool.server}`,
            version: "-",
            enabled: false,
            note: t(ctx.lang, "note_mcp", {
              server: tool.server,
              tier: tool.tier,
              state: t(ctx.lang, "mcp_failed", { sentence }),
            }),
            source: `mcp:${tool.server}`,
          });
          continue;
        }
        groups["agent.tools"]!.push({
          name: tool.name,
          distribution: `mcp:${tool.server}`,
          version: "-",
          enabled: tool.state === "pinned",
          note: t(ctx.lang, "note_mcp", {
            server: tool.server,
            tier: tool.tier,
            state: t(ctx.lang, `mcp_${tool.state}`),
          }),
          source: `mcp:${tool.server}`,
        });
      }
    }
    if (opts.json === true) {
      ctx.out(JSON.stringify({ groups, errors: registry.errors }, null, 2));
      return 0;
    }
    for (const group of COMPONENT_GROUPS) {
      ctx.out(group);
      const lines = groups[group] ?? [];
      if (lines.length === 0) ctx.out(`  ${t(ctx.lang, "group_empty")}`);
      const rows = lines.map((l) => [
        l.name,
        l.distribution,
        l.version,
        l.enabled ? t(ctx.lang, "enabled") : t(ctx.lang, "disabled"),
        l.note,
      ]);
      for (const row of table(rows)) ctx.out(`  ${row}`);
    }
    if (registry.errors.length > 0) {
      ctx.out(t(ctx.lang, "load_errors"));
      for (const e of registry.errors) {
        ctx.out(`  ${e.module}  ${t(ctx.lang, "note_error", { detail: e.detail })}`);
      }
    }
    return 0;
  },
};

/**
 * The MCP servers this home's running hub could not start, with its sentence; none
 * when no hub runs here (a hub of another home on the port is not asked).
 */
async function failedServers(
  ctx: CommandContext,
  config: AgentConfig,
): Promise<Map<string, string>> {
  const { fetchControl } = await import("@agent/hub/daemon");
  const failed = new Map<string, string>();
  const health = await fetchControl(config.hub.port, "/health", { timeoutMs: 500 });
  if (health?.data_dir !== ctx.paths.dataDir) return failed;
  const status = await fetchControl(config.hub.port, "/status", {
    tokenFile: ctx.paths.hubTokenFile,
    timeoutMs: 1000,
  });
  const servers = (status?.mcp as { servers?: unknown } | undefined)?.servers;
  for (const s of Array.isArray(servers) ? servers : []) {
    const server = s as { name?: unknown; state?: unknown; sentence?: unknown };
    if (server.state === "failed" && typeof server.name === "string") {
      failed.set(server.name, String(server.sentence ?? ""));
    }
  }
  return failed;
}

function lineOf(c: ComponentInfo, config: AgentConfig | undefined, lang: Lang): ComponentLine {
  let note = "";
  switch (c.group) {
    case "agent.tools":
      note = c.tier === undefined ? "" : t(lang, "note_tier", { tier: c.tier });
      break;
    case "agent.providers": {
      const roles = Object.entries(config?.models.roles ?? {})
        .filter(([, r]) => r.provider === c.name)
        .map(([name]) => name);
      note = roles.length > 0
        ? t(lang, "note_in_use_roles", { roles: roles.join(", ") })
        : t(lang, "note_available");
      break;
    }
    case "agent.sessions":
      note = (config?.sessions.backend ?? "file") === c.name ? t(lang, "note_in_use") : "";
      break;
    case "agent.commands":
      note = t(lang, "note_command", { name: c.name });
      break;
    default:
      note = "";
  }
  return {
    name: c.name,
    distribution: c.distribution,
    version: c.version,
    enabled: c.enabled,
    note,
    source: c.source,
  };
}

/** Pads columns so they line up. */
function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => widths[i] = Math.max(widths[i] ?? 0, cell.length));
  }
  return rows.map((row) =>
    row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ")
      .trimEnd()
  );
}
