/**
 * The plain reading of a command's simplest forms, without commander: a command's plain
 * flags and valued options ({@linkcode plainOptions}), and a group's subcommands from a
 * table of what each takes ({@linkcode plainSubcommandArgs}: `agent net add ADDRESS
 * --note TEXT`, `agent hub status --json`). Loading commander costs about a tenth of a
 * second of processor time per run (mostly Node's `fs`, `child_process` and `events`
 * modules it pulls in), a third of `agent net status`; the tests alone run these
 * commands hundreds of times. Anything a reading does not cover (help, an unknown word,
 * a missing or extra argument, a repeated option, `--`) is left to commander, which
 * reads it and says what is wrong; `cli/plain_args_test.ts` checks each reading against
 * commander's.
 *
 * @module
 */
import type { CommandModule, PlainArgs } from "./command.ts";

/**
 * The options of `words` when each is one of the command's plain flags, or a plain
 * valued option with its value (`--by day`, `--by=day`), each at most once; otherwise
 * `undefined`, and commander reads them.
 */
export function plainOptions(
  words: readonly string[],
  command: Pick<CommandModule, "plainFlags" | "plainOptions">,
): Record<string, string | true> | undefined {
  const flags = command.plainFlags;
  if (flags === undefined) return undefined;
  const read = readWords(words, { flags, options: command.plainOptions ?? [] });
  return read === undefined || read.positional.length > 0 ? undefined : read.opts;
}

/** What one subcommand of a group takes, in commander's own notation. */
export interface PlainSubcommand {
  /** Its arguments as `configure()` declares them: `<address>`, `[name]`, `<text...>`. */
  args?: readonly string[];
  /** Its boolean options, long form (`--once`). */
  flags?: readonly string[];
  /** Its options that take a value (`--note`, `-n`). */
  options?: readonly string[];
}

/** A group's subcommands that the plain path reads, by their word. */
export type PlainTable = Readonly<Record<string, PlainSubcommand>>;

/**
 * What commander would hand a group's `run()` for `words` (the subcommand first, then
 * its arguments; its options), when the subcommand is in `table` and every word is one
 * of its arguments or options; otherwise `undefined`, and commander reads the words.
 */
export function plainSubcommandArgs(
  words: readonly string[],
  table: PlainTable,
): PlainArgs | undefined {
  const [sub, ...rest] = words;
  if (sub === undefined || !Object.hasOwn(table, sub)) return undefined;
  const spec = table[sub]!;
  const read = readWords(rest, { flags: spec.flags ?? [], options: spec.options ?? [] });
  if (read === undefined) return undefined;
  const declared = spec.args ?? [];
  const required = declared.filter((arg) => arg.startsWith("<")).length;
  const variadic = declared.at(-1)?.includes("...") ?? false;
  const count = read.positional.length;
  if (count < required || (!variadic && count > declared.length)) return undefined;
  return { args: [sub, ...read.positional], opts: read.opts };
}

/**
 * Splits `words` into positional words and options, or `undefined` when a word starts
 * with `-` and is not one of `flags` or `options` with a plain value, or an option comes
 * twice (commander would keep the last; reading it is left to commander).
 */
function readWords(
  words: readonly string[],
  known: { flags: readonly string[]; options: readonly string[] },
): { positional: string[]; opts: Record<string, string | true> } | undefined {
  const positional: string[] = [];
  const opts: Record<string, string | true> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith("-")) {
      positional.push(word);
      continue;
    }
    const eq = word.startsWith("--") ? word.indexOf("=") : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    const key = flagKey(name);
    if (Object.hasOwn(opts, key)) return undefined;
    if (eq < 0 && known.flags.includes(word)) {
      opts[key] = true;
    } else if (known.options.includes(name)) {
      const value = eq > 0 ? word.slice(eq + 1) : words[++i];
      if (value === undefined || value === "" || value.startsWith("-")) return undefined;
      opts[key] = value;
    } else return undefined;
  }
  return { positional, opts };
}

/** `--json` -> `json`, `--dry-run` -> `dryRun`, `-n` -> `n`, as commander names options. */
function flagKey(flag: string): string {
  return flag.replace(/^--?/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
