/**
 * The full `agent` run: environment and `.env`, paths, language, commander with the
 * global options, the chosen command's module, usage errors as one sentence (exit 2).
 *
 * @module
 */
import { Command, CommanderError, Help, InvalidArgumentError } from "commander";
import { isLang, type Lang, VERSION } from "@agent/hub/base";
import type { CommandModule } from "./command.ts";
import type { CommandContext } from "./context.ts";
import { failure, setupContext, usage, writeStderr, writeStdout } from "./_setup.ts";
import { errorMessage } from "@agent/net/common";
import { COMMANDS } from "./commands/_registry.ts";
import { ConfigError } from "@agent/hub/config";
import type { Prescan } from "./_prescan.ts";
import { PLACEHOLDERS, t } from "./_messages.ts";

/** The global options, which go before the command. */
const GLOBAL_OPTIONS = ["--home", "--profile", "--lang", "-v", "--verbose"];

interface Selection {
  module: CommandModule;
  cmd: Command;
  args: string[];
  opts: Record<string, unknown>;
}

/**
 * Runs `agent` with `argv` after the fast-path scan; returns the exit code. `env`: the
 * environment the run reads in place of the process's (`main()`'s option).
 */
export async function runProgram(
  argv: string[],
  pre: Prescan,
  env?: Record<string, string>,
): Promise<number> {
  const setup = setupContext(pre, COMMANDS.map((c) => c.name), env);
  if ("exit" in setup) return setup.exit;
  const { ctx, lang } = setup;

  const helpOut: string[] = [];
  const errOut: string[] = [];
  let selection: Selection | undefined;
  const program = new Command("agent");
  program
    .description(t(lang, "program"))
    .enablePositionalOptions()
    .helpOption("-h, --help", t(lang, "opt_help"))
    .helpCommand("help [command]", t(lang, "help_command"))
    .option("--profile <name>", t(lang, "opt_profile"))
    .option("--home <dir>", t(lang, "opt_home"))
    .option("--lang <lang>", t(lang, "opt_lang"), (value: string) => {
      if (!isLang(value)) throw new InvalidArgumentError(t(lang, "bad_lang", { value }));
      return value;
    })
    .option("-v, --verbose", t(lang, "opt_verbose"))
    .version(`agent ${VERSION}`, "-V, --version", t(lang, "opt_version"))
    .exitOverride()
    // Placeholders in `lang` (`--home <dizin>`) in the terms and usage lines, before
    // commander lines the columns up; subcommands inherit this.
    .configureHelp({
      optionTerm: (option) => placeholders(plainHelp.optionTerm(option), lang),
      subcommandTerm: (cmd) => placeholders(plainHelp.subcommandTerm(cmd), lang),
      argumentTerm: (arg) => placeholders(plainHelp.argumentTerm(arg), lang),
      commandUsage: (cmd) => placeholders(plainHelp.commandUsage(cmd), lang),
    })
    .configureOutput({
      writeOut: (s) => helpOut.push(s),
      writeErr: (s) => errOut.push(s),
      outputError: () => {},
    });

  const modules = await commandModules(pre.command, ctx, lang);
  for (const module of modules) {
    const sub = program.createCommand(module.name).copyInheritedSettings(program)
      .description(module.summary[lang] ?? module.summary.en);
    sub.helpOption("-h, --help", t(lang, "opt_help"));
    try {
      module.configure(sub, lang);
    } catch (error) {
      // An extra component's broken declaration must not take the other commands down.
      ctx.logger.warn(t(lang, "command_configure_failed", {
        name: module.name,
        detail: errorMessage(error),
      }));
      continue;
    }
    program.addCommand(sub);
    attach(sub, module, (s) => selection = s, lang);
  }

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    const helpCodes = ["commander.helpDisplayed", "commander.version", "commander.help"];
    if (helpCodes.includes(error.code) && error.exitCode === 0) {
      writeStdout(localiseHelp(helpOut.join(""), lang));
      return 0;
    }
    if (error.code === "commander.help") {
      const topic = unknownHelpTopic(program, argv);
      if (topic !== undefined) return usage(lang, t(lang, "unknown_command", topic));
      // A command (or a group) called without its subcommand: help on stderr, exit 2.
      writeStderr(localiseHelp(errOut.join(""), lang));
      const words = usageOf(program, argv);
      return usage(
        lang,
        words === "agent" ? t(lang, "no_command") : t(lang, "no_subcommand", { usage: words }),
      );
    }
    const unknownWord = error.message.match(/'([^']*)'/)?.[1];
    if (
      error.code === "commander.unknownCommand" && pre.command !== undefined &&
      unknownWord === pre.command
    ) {
      // Extra commands come from agent.toml: when it is invalid, say so, not just "unknown".
      const problem = await invalidConfig(ctx);
      if (problem !== undefined) {
        return usage(
          lang,
          t(lang, "unknown_command_config", { name: pre.command, detail: problem }),
        );
      }
    }
    return usage(lang, commanderSentence(error, lang, argv, usageOf(program, argv)));
  }
  if (selection === undefined) {
    writeStderr(localiseHelp(program.helpInformation(), lang));
    return usage(lang, t(lang, "no_command"));
  }
  const chosen: Selection = selection;
  try {
    return await chosen.module.run(ctx, chosen.args, chosen.opts);
  } catch (error) {
    return failure(ctx, error);
  }
}

/** Loads the modules needed for this run: only the named built-in, else all of them. */
async function commandModules(
  name: string | undefined,
  ctx: CommandContext,
  lang: Lang,
): Promise<CommandModule[]> {
  const named = name === undefined ? undefined : COMMANDS.find((c) => c.name === name);
  const entries = named !== undefined ? [named] : COMMANDS;
  const modules: CommandModule[] = [];
  for (const entry of entries) {
    try {
      modules.push((await entry.load()).command);
    } catch (error) {
      ctx.logger.warn(
        t(lang, "component_command_failed", {
          name: entry.name,
          module: "cli/commands",
          detail: errorMessage(error),
        }),
      );
    }
  }
  if (named !== undefined) return modules;
  // Not a built-in (or help): extra commands from [components] may provide it.
  const { componentCommands } = await import("./_component_commands.ts");
  for (const found of await componentCommands(ctx)) {
    if (modules.some((m) => m.name === found.name)) continue;
    modules.push(found);
  }
  return modules;
}

/** Why agent.toml is invalid (without its leading file name), if it is. */
async function invalidConfig(ctx: CommandContext): Promise<string | undefined> {
  try {
    await ctx.config();
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError) || error.kind === "missing") return undefined;
    return error.message.replace(/^agent\.toml: /, "");
  }
}

/** Sets an action on `cmd` and every nested subcommand that records what was chosen. */
function attach(
  cmd: Command,
  module: CommandModule,
  choose: (s: Selection) => void,
  lang: Lang,
  path: string[] = [],
): void {
  if (cmd.commands.length === 0) {
    cmd.action((...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      choose({ module, cmd: self, args: [...path, ...self.args], opts: self.opts() });
    });
    return;
  }
  for (const sub of cmd.commands) {
    sub.helpOption("-h, --help", t(lang, "opt_help"));
    attach(sub, module, choose, lang, [...path, sub.name()]);
  }
}

/** Turns a commander error into one of our sentences. */
function commanderSentence(
  error: CommanderError,
  lang: Lang,
  argv: string[],
  usageText: string,
): string {
  const quoted = [...error.message.matchAll(/'([^']*)'/g)].map((m) => m[1] ?? "");
  const name = quoted[0] ?? "";
  // Commander's own guess at a typo: "(Did you mean doctor?)".
  // "help" is no command anyone mistypes on the way to another word.
  const guess = error.message.match(/\(Did you mean ([^?\s]+)\?\)/)?.[1];
  const hint = guess === "help" ? undefined : guess;
  switch (error.code) {
    case "commander.unknownCommand":
      return hint === undefined
        ? t(lang, "unknown_command", { name, usage: usageText })
        : t(lang, "unknown_command_hint", { name, hint });
    case "commander.unknownOption": {
      // An unknown option before the command word is a global one.
      const at = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
      const command = argv.findIndex((a) => !a.startsWith("-"));
      const usage = command === -1 || (at !== -1 && at < command) ? "agent" : usageText;
      const flag = name.split("=")[0] ?? name;
      if (usage !== "agent" && GLOBAL_OPTIONS.includes(flag)) {
        return t(lang, "global_after_command", { name: flag, command: usage.slice(6) });
      }
      return hint === undefined
        ? t(lang, "unknown_option", { name, usage })
        : t(lang, "unknown_option_hint", { name, hint });
    }
    case "commander.missingArgument":
      return t(lang, "missing_argument", { name, usage: usageText });
    case "commander.optionMissingArgument":
    case "commander.missingMandatoryOptionValue":
      return t(lang, "option_missing_argument", { name: name.split(/[ ,]/)[0] ?? name });
    case "commander.excessArguments": {
      const max = Number(error.message.match(/Expected (\d+) argument/)?.[1] ?? NaN);
      if (max === 0) return t(lang, "no_arguments", { usage: usageText });
      if (max > 0) return t(lang, "at_most_arguments", { usage: usageText, max });
      return t(lang, "excess_arguments", { usage: usageText });
    }
    case "commander.conflictingOption":
      return t(lang, "conflicting_option", { name: quoted.join("', '") });
    case "commander.invalidArgument": {
      // Our parsers throw a full sentence; commander wraps it after "is invalid. ".
      const ours = error.message.split(" is invalid. ")[1];
      if (ours !== undefined && ours !== "") return ours.trim();
      return t(lang, "usage_generic", { usage: usageText, detail: stripError(error.message) });
    }
    default:
      return t(lang, "usage_generic", { usage: usageText, detail: stripError(error.message) });
  }
}

function stripError(message: string): string {
  return message.replace(/^error: /, "").replace(/\.$/, "");
}

/**
 * `agent <command words>` of this run, as far as the words name commands (so an
 * extra argument or an unknown subcommand is not part of it), for messages.
 */
function usageOf(program: Command, argv: string[]): string {
  return commandPath(program, argv).words.join(" ");
}

/** The commands `argv` names, and the first positional word after them. */
function commandPath(program: Command, argv: string[]): { words: string[]; next?: string } {
  const words: string[] = ["agent"];
  let cmd = program;
  let skip = false;
  for (const arg of argv) {
    if (skip) {
      skip = false;
      continue;
    }
    if (cmd === program && (arg === "--home" || arg === "--profile" || arg === "--lang")) {
      skip = true;
      continue;
    }
    if (arg.startsWith("-")) continue;
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (sub === undefined) return { words, next: arg };
    words.push(arg);
    cmd = sub;
  }
  return { words };
}

/** `agent [...] help <word>` where `<word>` names no command: that word and its parent. */
function unknownHelpTopic(
  program: Command,
  argv: string[],
): { name: string; usage: string } | undefined {
  const { words, next } = commandPath(program, argv);
  if (next !== "help") return undefined;
  const after = argv.slice(argv.lastIndexOf("help") + 1).find((a) => !a.startsWith("-"));
  return after === undefined ? undefined : { name: after, usage: words.join(" ") };
}

/** Commander's own help terms, which {@linkcode placeholders} translates. */
const plainHelp = new Help();

/** `[options]`, `<name>`, `[command...]` in `text` with their words in `lang`. */
function placeholders(text: string, lang: Lang): string {
  if (lang === "en") return text;
  const words = PLACEHOLDERS[lang];
  return text.replace(
    /([<[])([a-z_-]+)(\.\.\.)?([>\]])/g,
    (all, open, word, more, close) =>
      Object.hasOwn(words, word) ? `${open}${words[word]}${more ?? ""}${close}` : all,
  );
}

function localiseHelp(text: string, lang: Lang): string {
  if (lang === "en") return text;
  return text
    .replace(/^Usage:/gm, t(lang, "heading_usage"))
    .replace(/^Options:/gm, t(lang, "heading_options"))
    .replace(/^Commands:/gm, t(lang, "heading_commands"))
    .replace(/^Arguments:/gm, t(lang, "heading_arguments"))
    .replace(/^Global Options:/gm, t(lang, "heading_global"));
}
