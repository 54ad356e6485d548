/**
 * The built-in components, one line each, per group, and {@linkcode loadComponents},
 * the registry with them. The table lives in the wiring layer because its entries
 * load every domain package of the hub. Add yours with one line:
 * `{ group: "agent.tools", name: "read_file", tier: 0, distribution: "agent-core", load: () => import(...) },`
 * Keep this file free of static imports of heavy modules: `agent version` and
 * `agent components` read it; `load` is only called by the code that uses the component.
 *
 * @module
 */
import type { BuiltinComponent } from "../components/types.ts";
import type { AgentConfig } from "../config/types.ts";
import type { AgentPaths } from "../paths.ts";
import { loadRegistry, type LoadRegistryOptions, type Registry } from "../components/registry.ts";

/** Every built-in component. */
export const BUILTIN_COMPONENTS: readonly BuiltinComponent[] = [
  // agent.commands (the command modules themselves are listed in cli/commands/_registry.ts)
  { group: "agent.commands", name: "init", distribution: "agent-core" },
  { group: "agent.commands", name: "doctor", distribution: "agent-core" },
  { group: "agent.commands", name: "components", distribution: "agent-core" },
  { group: "agent.commands", name: "version", distribution: "agent-core" },
  { group: "agent.commands", name: "chat", distribution: "agent-core" },
  { group: "agent.commands", name: "hub", distribution: "agent-core" },
  { group: "agent.commands", name: "net", distribution: "agent-net" },
  { group: "agent.commands", name: "cloud", distribution: "agent-cloud" },
  // agent.tools
  {
    group: "agent.tools",
    name: "current_time",
    tier: 1,
    distribution: "agent-core",
    load: () => import("../tools/mod.ts").then((m) => m.currentTime),
  },
  {
    group: "agent.tools",
    name: "read_file",
    tier: 1,
    distribution: "agent-core",
    load: () => import("../tools/mod.ts").then((m) => m.readFile),
  },
  {
    group: "agent.tools",
    name: "list_notes",
    tier: 1,
    distribution: "agent-core",
    load: () => import("../tools/mod.ts").then((m) => m.listNotes),
  },
  {
    group: "agent.tools",
    name: "read_note",
    tier: 1,
    distribution: "agent-core",
    load: () => import("../tools/mod.ts").then((m) => m.readNote),
  },
  {
    group: "agent.tools",
    name: "write_note",
    tier: 2,
    distribution: "agent-core",
    load: () => import("../tools/mod.ts").then((m) => m.writeNote),
  },
  {
    group: "agent.tools",
    name: "fetch_url",
    tier: 2,
    distribution: "agent-core",
    load: () => import("../tools/mod.ts").then((m) => m.fetchUrl),
  },
  {
    group: "agent.tools",
    name: "web_search",
    tier: 1,
    distribution: "agent-core",
    load: () => import("../tools/mod.ts").then((m) => m.webSearch),
  },
  {
    group: "agent.tools",
    name: "shell",
    tier: 2,
    distribution: "agent-core",
    load: () => import("../tools/mod.ts").then((m) => m.shell),
  },
  {
    group: "agent.tools",
    name: "net_send",
    tier: 2,
    distribution: "agent-net",
    load: () => import("../tools/net_send.ts").then((m) => m.netSend),
  },
  // agent.providers
  {
    group: "agent.providers",
    name: "vendor-a",
    distribution: "agent-core",
    load: () => import("../models/mod.ts").then((m) => m.createModel),
  },
  {
    group: "agent.providers",
    name: "vendor-b",
    distribution: "agent-core",
    load: () => import("../models/mod.ts").then((m) => m.createModel),
  },
  {
    group: "agent.providers",
    name: "vendor-c",
    distribution: "agent-core",
    load: () => import("../models/mod.ts").then((m) => m.createModel),
  },
  {
    group: "agent.providers",
    name: "vendor-d",
    distribution: "agent-core",
    load: () => import("../models/mod.ts").then((m) => m.createModel),
  },
  {
    group: "agent.providers",
    name: "local-runtime",
    distribution: "agent-core",
    load: () => import("../models/mod.ts").then((m) => m.createModel),
  },
  {
    group: "agent.providers",
    name: "fake",
    distribution: "agent-core",
    load: () => import("../models/mod.ts").then((m) => m.createModel),
  },
  // agent.sessions
  {
    group: "agent.sessions",
    name: "file",
    distribution: "agent-core",
    load: () => import("../sessions/mod.ts").then((m) => m.FileSessionStore),
  },
  {
    group: "agent.sessions",
    name: "spine",
    distribution: "agent-cloud",
    load: () => import("../sessions/mod.ts").then((m) => m.SpineSessionStore),
  },
  // agent.channels
  {
    group: "agent.channels",
    name: "net",
    distribution: "agent-net",
    load: () => import("../network/mod.ts").then((m) => m.NetService),
  },
  // agent.subs
  {
    group: "agent.subs",
    name: "persona-subs",
    distribution: "agent-net",
    load: () => import("../subs/mod.ts").then((m) => m.loadSubAgentDirectory),
  },
];

/**
 * The component registry of this hub: the built-ins above plus `[components]
 * modules` (`config` undefined: built-ins only, none disabled).
 */
export function loadComponents(
  config: AgentConfig | undefined,
  paths: AgentPaths,
  options: Omit<LoadRegistryOptions, "builtins"> = {},
): Promise<Registry> {
  return loadRegistry(config, paths, { ...options, builtins: BUILTIN_COMPONENTS });
}
