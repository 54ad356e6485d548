/**
 * Subcommands contributed by extra components (group `agent.commands` in a module
 * named by `[components] modules`). A component that fails to load is skipped with a
 * warning; `agent doctor` and `agent components` report it.
 *
 * @module
 */
import { ConfigError } from "@agent/hub/config";
import { loadComponents } from "@agent/hub/doctor";
import type { CommandModule } from "./command.ts";
import type { CommandContext } from "./context.ts";
import { t } from "./_messages.ts";
import { errorMessage } from "@agent/net/common";

/** The command modules of enabled extra components. */
export async function componentCommands(ctx: CommandContext): Promise<CommandModule[]> {
  let config;
  try {
    config = await ctx.config();
  } catch (error) {
    if (error instanceof ConfigError) return [];
    throw error;
  }
  if (config.components.modules.length === 0) return [];
  const registry = await loadComponents(config, ctx.paths);
  const out: CommandModule[] = [];
  for (const c of registry.components) {
    if (c.group !== "agent.commands" || c.source === "builtin" || !c.enabled) continue;
    try {
      if (c.load === undefined) throw new TypeError("it has no load()");
      const loaded = await c.load() as Record<string, unknown>;
      const module = (loaded.command ?? loaded) as Partial<CommandModule>;
      if (typeof module.run !== "function" || typeof module.configure !== "function") {
        throw new TypeError("load() did not give a command with configure() and run()");
      }
      out.push({
        name: c.name,
        summary: module.summary ?? { en: c.name, tr: c.name },
        configure: module.configure.bind(module),
        run: module.run.bind(module),
      });
    } catch (error) {
      ctx.logger.warn(t(ctx.lang, "component_command_failed", {
        name: c.name,
        module: c.source,
        detail: errorMessage(error),
      }));
    }
  }
  return out;
}
