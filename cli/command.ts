/**
 * The shape of one `agent` subcommand. Each `cli/commands/<name>.ts` exports
 * `const command: CommandModule`; `cli/commands/_registry.ts` lists them as lazy imports
 * so a run loads only the command it needs.
 *
 * Errors: a command returns its exit code, or throws. A {@linkcode UserError} (from
 * the hub; {@linkcode UsageError} is its exit-2 kind, and a bad `agent.toml` is one
 * too) carries the sentence the user reads and the exit code; anything else is
 * unexpected: its stack goes to the log file and the user reads one line. Both become
 * output in one place, `failure()` in `cli/_setup.ts`; no stack trace reaches a user.
 *
 * @module
 */
import type { Command } from "commander";
import { type Lang, UserError } from "@agent/hub/base";

export { UserError };
import type { CommandContext } from "./context.ts";

/** One subcommand of `agent`. */
export interface CommandModule {
  /** The word after `agent` (for a group such as `hub`, the group's word). */
  name: string;
  /** One line for `agent --help`, per language. */
  summary: Record<Lang, string>;
  /**
   * Declares arguments, options and nested subcommands on `cmd` (already named and
   * described). Keep heavy imports out of here: load them inside {@linkcode run}.
   */
  configure(cmd: Command, lang: Lang): void;
  /**
   * Boolean options (such as `--json`) the command also accepts without commander: a
   * run whose words after the command are only these, and no help, skips loading
   * commander (tens of milliseconds). They must match what {@linkcode configure}
   * declares. Leave it out for commands with arguments or valued options.
   */
  plainFlags?: readonly string[];
  /**
   * Valued options (such as `--by`) the plain path also takes, as `--by day` or
   * `--by=day`; only with {@linkcode plainFlags}. Their values are checked by
   * {@linkcode run}, as commander would leave them.
   */
  plainOptions?: readonly string[];
  /**
   * The command's own reading of its simplest forms (`mcp list`, `mcp add NAME --
   * COMMAND ARGS…`), for a command with arguments or nested subcommands: the `args` and
   * `opts` commander would give {@linkcode run}, or `undefined` to leave the words to
   * commander. Those runs skip loading commander (about a tenth of a second at the
   * CLI's start); a test checks the reading against commander's.
   */
  plainArgs?(words: readonly string[]): PlainArgs | undefined;
  /**
   * Runs the command and returns its exit code. `args` are the positional arguments,
   * `opts` the parsed options of the command that was invoked. For a group with nested
   * subcommands, `args[0]` is the nested command's name and `opts` are its options.
   */
  run(ctx: CommandContext, args: string[], opts: Record<string, unknown>): Promise<number>;
}

/** What {@linkcode CommandModule.plainArgs} read: what `run` gets. */
export interface PlainArgs {
  args: string[];
  opts: Record<string, string | true>;
}

/** A line of `cli/commands/_registry.ts`: a command name and how to load its module. */
export interface CommandEntry {
  /** The word after `agent`. */
  name: string;
  /** Imports the module lazily; it must export `command: CommandModule`. */
  load: () => Promise<{ command: CommandModule }>;
}

/** Thrown by a command for bad user input: printed as one sentence, exit 2. */
export class UsageError extends UserError {
  override name = "UsageError";
  constructor(message: string, options?: ErrorOptions) {
    super(message, 2, options);
  }
}
