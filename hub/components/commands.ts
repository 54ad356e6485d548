/**
 * Subcommands contributed by extra components (`agent.commands` in a module named by
 * `[components] modules`).
 *
 * @module
 */
import type { CommandContext } from "../../cli/context.ts";
import type { CommandModule } from "../../cli/command.ts";

/** The command modules extra components add; a broken one is skipped (doctor reports it). */
export async function componentCommands(ctx: CommandContext): Promise<CommandModule[]> {
  void ctx;
  return await Promise.resolve([]);
}
