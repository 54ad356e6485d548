/**
 * The built-in components, one line each, per group. Add yours with one line:
 * `{ group: "agent.tools", name: "read_file", tier: 0, distribution: "agent-core", load: () => import(...) },`
 * Keep this file free of static imports of heavy modules: `agent version` and
 * `agent components` read it; `load` is only called by the code that uses the component.
 *
 * @module
 */
import type { BuiltinComponent } from "./types.ts";

/** Every built-in component. */
export const BUILTIN_COMPONENTS: readonly BuiltinComponent[] = [
  // agent.commands (the command modules themselves are listed in cli/commands/_registry.ts)
  { group: "agent.commands", name: "init", distribution: "agent-core" },
  { group: "agent.commands", name: "doctor", distribution: "agent-core" },
  { group: "agent.commands", name: "components", distribution: "agent-core" },
  { group: "agent.commands", name: "version", distribution: "agent-core" },
  // agent.tools
  // agent.providers
  { group: "agent.providers", name: "vendor-a", distribution: "agent-core" },
  { group: "agent.providers", name: "vendor-b", distribution: "agent-core" },
  { group: "agent.providers", name: "vendor-c", distribution: "agent-core" },
  { group: "agent.providers", name: "vendor-d", distribution: "agent-core" },
  { group: "agent.providers", name: "local-runtime", distribution: "agent-core" },
  { group: "agent.providers", name: "fake", distribution: "agent-core" },
  // agent.sessions
  { group: "agent.sessions", name: "file", distribution: "agent-core" },
  // agent.channels
  // agent.subs
];
