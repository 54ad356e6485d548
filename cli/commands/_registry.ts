/**
 * The built-in subcommands of `agent`, one line each, as lazy imports so a run loads
 * only the command it needs. Add yours with one line:
 * `{ name: "spend", load: () => import("./spend.ts") },`
 *
 * @module
 */
import type { CommandEntry } from "../command.ts";

/** Every built-in command, in the order `agent --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: "init", load: () => import("./init.ts") },
  { name: "doctor", load: () => import("./doctor.ts") },
  { name: "components", load: () => import("./components.ts") },
  { name: "spend", load: () => import("./spend.ts") },
  { name: "jobs", load: () => import("./jobs.ts") },
  { name: "memory", load: () => import("./memory.ts") },
  { name: "mcp", load: () => import("./mcp.ts") },
  { name: "chat", load: () => import("./chat.ts") },
  { name: "tui", load: () => import("./tui.ts") },
  { name: "hub", load: () => import("./hub.ts") },
  { name: "dashboard", load: () => import("./dashboard.ts") },
  { name: "net", load: () => import("./net.ts") },
  { name: "cloud", load: () => import("./cloud.ts") },
  { name: "version", load: () => import("./version.ts") },
];
