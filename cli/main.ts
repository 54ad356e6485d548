/**
 * The `agent` command's entry point. `agent version` and `agent --version` (`-V`) take
 * a fast path that loads only data; a built-in command given only its plain flags and
 * plain valued options (`agent spend --json`, `agent spend --by day`), or one of the
 * simple forms it reads itself (`agent mcp list`, `agent mcp add NAME -- COMMAND`, a
 * subcommand of `agent net`, `hub`, `jobs` or `cloud` with its declared arguments and
 * options: `_plain_args.ts`), runs without commander; everything else goes through
 * `_program.ts` (commander).
 *
 * @module
 */
import { type Prescan, prescan } from "./_prescan.ts";
import type { CommandModule, PlainArgs } from "./command.ts";
import { plainOptions } from "./_plain_args.ts";
import { resolvePaths } from "@agent/hub/base";

/** Options for {@linkcode main}. */
export interface MainOptions {
  /**
   * The environment the run reads in place of the process's, for a host that runs
   * commands in its own process (the tests do): the run's `--lang` and `--profile` go
   * into this object, not into the process's environment, which stays untouched.
   */
  env?: Record<string, string>;
}

/** Runs `agent` with `argv` (without the program name) and returns the exit code. */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const pre = prescan(argv);
  if (pre.fast === "version_flag") {
    const { VERSION } = await import("@agent/hub/base");
    try {
      Deno.stdout.writeSync(new TextEncoder().encode(`agent ${VERSION}\n`));
    } catch { /* a closed stdout: nothing to tell */ }
    return 0;
  }
  if (pre.fast === "version" && !listsExtraModules(pre.home, options.env)) {
    const { versionLines } = await import("./commands/_version_lines.ts");
    const text = versionLines().map((l) => `${l}\n`).join("");
    try {
      Deno.stdout.writeSync(new TextEncoder().encode(text));
    } catch { /* a closed stdout: nothing to tell */ }
    return 0;
  }
  const plain = await plainCommand(pre);
  if (plain !== undefined) {
    const { setupContext, failure } = await import("./_setup.ts");
    const { COMMANDS } = await import("./commands/_registry.ts");
    const setup = setupContext(pre, COMMANDS.map((c) => c.name), options.env);
    if ("exit" in setup) return setup.exit;
    try {
      return await plain.command.run(setup.ctx, plain.read.args, plain.read.opts);
    } catch (error) {
      return failure(setup.ctx, error);
    }
  }
  const { runProgram } = await import("./_program.ts");
  return await runProgram(argv, pre, options.env);
}

/**
 * Whether agent.toml names extra component modules (their distributions are listed
 * by `agent version` too, which needs the full path). A cheap text scan, no parser.
 */
function listsExtraModules(home: string | undefined, given?: Record<string, string>): boolean {
  try {
    const env = given ?? Deno.env.toObject();
    const text = Deno.readTextFileSync(resolvePaths({ home, env }).configFile);
    return /^\s*modules\s*=\s*\[\s*["']/m.test(text);
  } catch {
    return false;
  }
}

/**
 * The built-in command this run names, with what it gets, when the words after it are
 * only its plain flags or a form its own reading takes (`plainArgs`).
 */
async function plainCommand(
  pre: Prescan,
): Promise<{ command: CommandModule; read: PlainArgs } | undefined> {
  if (pre.help || pre.command === undefined) return undefined;
  const { COMMANDS } = await import("./commands/_registry.ts");
  const entry = COMMANDS.find((c) => c.name === pre.command);
  if (entry === undefined) return undefined;
  const { command } = await entry.load();
  const opts = plainOptions(pre.rest, command);
  const read = opts !== undefined ? { args: [], opts } : command.plainArgs?.(pre.rest);
  return read === undefined ? undefined : { command, read };
}

/**
 * Runs `agent` with the process's arguments and exits with its code. Whatever escapes
 * the commands (a module that failed to load, say) is one line, never a stack trace.
 */
export async function exitWithMain(): Promise<never> {
  let code: number;
  try {
    code = await main(Deno.args);
  } catch (error) {
    // Kept inline: the entry point loads nothing it does not need.
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    try {
      Deno.stderr.writeSync(new TextEncoder().encode(`agent failed: ${detail}\n`));
    } catch { /* a closed stderr: nothing to tell */ }
    code = 1;
  }
  Deno.exit(code);
}

if (import.meta.main) await exitWithMain();
