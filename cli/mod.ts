/**
 * The `agent` command: argument parsing, output and exit codes, thin over `@agent/hub`
 * and `@agent/kit`. Run as the main module (`deno run jsr:@agent/cli <args>`, or
 * `cli/main.ts` from a checkout) it runs the command; imported, it offers
 * {@linkcode main} and the shape of a command, for extra components that add one.
 *
 * @module
 */
import { exitWithMain } from "./main.ts";

export { exitWithMain, main } from "./main.ts";
export type { MainOptions } from "./main.ts";
export type { CommandEntry, CommandModule, PlainArgs } from "./command.ts";
export { UsageError, UserError } from "./command.ts";
export type { CommandContext } from "./context.ts";

if (import.meta.main) await exitWithMain();
