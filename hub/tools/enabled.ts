/**
 * The tools an agent offers: the enabled `agent.tools` components of the registry
 * (built-ins such as `net_send` from `agent-net`, and tools of extra modules), so a
 * tool installed or disabled in `[components]` reaches chat without code changes.
 *
 * @module
 */
import type { AgentTool } from "./tool.ts";
import type { Registry } from "../components/registry.ts";
import type { ToolsConfig } from "../config/mod.ts";

/**
 * Loads every enabled `agent.tools` component in registry order. A component that
 * fails to load or is not a tool is left out (doctor and `agent components` report
 * it); the stricter of the declared and the tool's own tier applies. With `settings`
 * (`[tools]`), a tool that is not offered under them (web search without a provider,
 * the shell when off or without bubblewrap) is left out; without, every such tool is.
 */
export async function enabledTools(
  registry: Pick<Registry, "components">,
  settings?: ToolsConfig,
): Promise<AgentTool[]> {
  const components = registry.components;
  const tools: AgentTool[] = [];
  for (const c of components) {
    if (c.group !== "agent.tools" || !c.enabled || c.load === undefined) continue;
    let loaded: unknown;
    try {
      loaded = await c.load();
    } catch {
      continue;
    }
    if (!isTool(loaded) || tools.some((t) => t.name === loaded.name)) continue;
    if (
      loaded.offered !== undefined && (settings === undefined || !await loaded.offered(settings))
    ) {
      continue;
    }
    const tier = Math.max(loaded.tier, c.tier ?? 1) >= 2 ? 2 : 1;
    tools.push(tier === loaded.tier ? loaded : { ...loaded, tier });
  }
  return tools;
}

function isTool(value: unknown): value is AgentTool {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.name === "string" && typeof v.execute === "function" &&
    typeof v.description === "string" && typeof v.inputSchema === "object" &&
    (v.tier === 1 || v.tier === 2);
}
