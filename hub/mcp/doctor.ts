/**
 * The `tools` lines of `agent doctor`: the shell tool (on only with bubblewrap; said
 * plainly when it is missing, since the tool then stays off), the web search provider
 * (its price, its budget, a missing key) and the MCP servers' pins (read from the pin
 * file; no server is started).
 *
 * @module
 */
import type { CheckResult, DoctorContext } from "../doctor/types.ts";
import { findBwrap } from "../sandbox/mod.ts";
import { formatUsd } from "../spend/mod.ts";
import { t } from "./_doctor_messages.ts";

/** Every `tools` line; none without a configuration. */
export async function toolsCheck(d: DoctorContext): Promise<CheckResult[]> {
  const config = d.config;
  if (config === undefined) return [];
  const lines: CheckResult[] = [];
  const name = "tools";
  const bwrap = await findBwrap(d.env);
  const sandboxed = Object.entries(config.mcp.servers).filter(([, s]) => s.sandbox);
  if (bwrap === undefined) {
    const needed = config.tools.shell.enabled || sandboxed.length > 0;
    lines.push({
      name,
      status: needed ? "warn" : "info",
      detail: t(d.lang, config.tools.shell.enabled ? "no_bwrap_shell" : "no_bwrap"),
    });
    for (const [server] of sandboxed) {
      lines.push({ name, status: "warn", detail: t(d.lang, "no_bwrap_server", { server }) });
    }
  } else if (config.tools.shell.enabled) {
    lines.push({
      name,
      status: "ok",
      detail: t(d.lang, "shell_on", {
        seconds: config.tools.shell.timeout_seconds,
        kb: config.tools.shell.max_output_kb,
      }),
    });
  }
  const search = config.tools.search;
  if (search !== undefined) {
    const key = (d.env.SEARCH_API_KEY ?? "").trim() !== "";
    if (search.provider === "brave" && !key) {
      lines.push({ name, status: "warn", detail: t(d.lang, "search_no_key") });
    } else {
      const budget = search.budget === undefined
        ? t(d.lang, "no_budget")
        : t(d.lang, search.budget.hard === true ? "budget_hard" : "budget", {
          usd: formatUsd(search.budget.usd, d.lang),
          period: search.budget.period,
        });
      lines.push({
        name,
        status: "ok",
        detail: t(d.lang, "search_on", {
          provider: search.provider,
          price: formatUsd(search.price_per_call, d.lang),
          budget,
        }),
      });
    }
  }
  if (Object.keys(config.mcp.servers).length > 0) {
    const { listServers } = await import("./manage.ts");
    for (const line of await listServers(config, d.paths)) {
      lines.push({
        name,
        status: line.state === "pinned" ? "ok" : "warn",
        detail: t(d.lang, `mcp_${line.state}`, { server: line.name, count: line.tools }),
      });
    }
  }
  return lines;
}
