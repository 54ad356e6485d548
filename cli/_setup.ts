/**
 * Everything a command needs before it runs, without commander: the environment and
 * `.env`, paths, language, profile and logger, built into a {@linkcode CommandContext};
 * and how a command's outcome becomes an exit code. Shared by the full program and by
 * the plain path that runs a command with only its plain flags.
 *
 * @module
 */
import {
  isLang,
  type Lang,
  Logger,
  readEnvFileSync,
  resolvePaths,
  UserError,
} from "@agent/hub/base";
import { loadConfig } from "@agent/hub/config";
import { UsageError } from "./command.ts";
import { type CommandContext, createContext, writeAll } from "./context.ts";
import { asTyped } from "./invocation.ts";
import type { Prescan } from "./_prescan.ts";
import { t } from "./_messages.ts";
import { errorMessage } from "@agent/net/common";

/** The run's context and language, or the exit code of a run that cannot start. */
export type Setup = { ctx: CommandContext; lang: Lang } | { exit: number };

/**
 * Builds the run's context from the scanned global options and the built-in command names.
 * `given` is the environment the run reads in place of the process's (see `main()`); the
 * run's `--profile` and `--lang` are written into it for the run's children, else into the
 * process's own environment.
 */
export function setupContext(
  pre: Prescan,
  commandNames: readonly string[],
  given?: Record<string, string>,
): Setup {
  const exported = given === undefined
    ? (name: string, value: string) => Deno.env.set(name, value)
    : (name: string, value: string) => given[name] = value;
  const processEnv = { ...(given ?? Deno.env.toObject()) };
  // `--home=` would quietly make the working directory the home.
  for (const [name, value] of [["--home", pre.home], ["--profile", pre.profile]] as const) {
    if (value !== undefined && value.trim() === "") {
      const lang = isLang(pre.lang)
        ? pre.lang
        : isLang(processEnv.AGENT_LANG)
        ? processEnv.AGENT_LANG
        : "en";
      return { exit: usage(lang, t(lang, "option_missing_argument", { name })) };
    }
  }
  if (pre.profile !== undefined) exported("AGENT_PROFILE", pre.profile);
  let preLang: Lang | undefined;
  if (pre.lang !== undefined) {
    if (!isLang(pre.lang)) {
      const lang = isLang(processEnv.AGENT_LANG) ? processEnv.AGENT_LANG : "en";
      return { exit: usage(lang, t(lang, "bad_lang", { value: pre.lang })) };
    }
    preLang = pre.lang;
    exported("AGENT_LANG", pre.lang);
  }
  const firstPaths = resolvePaths({ home: pre.home, env: processEnv });
  const dotenv = readEnvFileSync(firstPaths.envFile);
  // The environment wins over .env. The environment itself is left alone (but for the two
  // exported options), so code that needs a key reads it from ctx.env.
  const ownEnv = { ...(given ?? Deno.env.toObject()) };
  const env: Record<string, string> = { ...dotenv, ...ownEnv };
  const paths = resolvePaths({ home: pre.home, env });
  const lang: Lang = preLang ??
    (isLang(env.AGENT_LANG) ? env.AGENT_LANG : uiLangOf(paths.configFile));
  const profile = pre.profile ?? (env.AGENT_PROFILE || "home");
  const logger = new Logger({ file: paths.logFile, stderr: pre.verbose ? "INFO" : "WARNING" });
  const ctx = createContext({
    paths,
    env,
    processEnv: ownEnv,
    lang,
    profile,
    verbose: pre.verbose,
    logger,
    loadConfig: () => loadConfig(paths, { lang }),
    commandNames,
  });

  return { ctx, lang };
}

/** Prints a usage sentence of the parser (before any command runs); returns exit code 2. */
export function usage(lang: Lang, sentence: string): number {
  return report(new UsageError(sentence), { lang, err: (line) => writeStderr(`${line}\n`) });
}

/**
 * Turns an error thrown by a command into its output and exit code (through the same
 * one place as {@linkcode usage}).
 */
export function failure(ctx: CommandContext, error: unknown): number {
  return report(error, { lang: ctx.lang, err: ctx.err, logFile: ctx.paths.logFile });
}

/** Where {@linkcode report} writes. */
interface Output {
  lang: Lang;
  err(line: string): void;
  /** The log file for the stack of an unexpected error. */
  logFile?: string;
}

/**
 * The one place an error becomes output: a {@linkcode UserError} prints its sentence
 * (if any) and exits with its code; anything else is logged with its stack and shown
 * as one line, exit 1. No stack trace reaches a user.
 */
function report(error: unknown, out: Output): number {
  if (error instanceof UserError) {
    if (error.message !== "") out.err(error.message);
    return error.exitCode;
  }
  if (out.logFile !== undefined) {
    new Logger({ file: out.logFile, stderr: "off" }).write(
      "ERROR",
      error instanceof Error ? (error.stack ?? error.message) : String(error),
    );
  }
  out.err(t(out.lang, "unexpected", { detail: errorMessage(error) }));
  return 1;
}

/** `[ui] lang` from agent.toml without validating the rest; `en` when absent or unreadable. */
export function uiLangOf(configFile: string): Lang {
  let text: string;
  try {
    text = Deno.readTextFileSync(configFile);
  } catch {
    return "en";
  }
  // A cheap scan: the [ui] table's lang key, so a broken file elsewhere still picks
  // the language its error is shown in.
  let inUi = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith("[")) inUi = /^\[\s*ui\s*\]/.test(line);
    else if (inUi) {
      const m = line.match(/^lang\s*=\s*["']([a-z]+)["']/);
      if (m && isLang(m[1])) return m[1];
    }
  }
  return "en";
}

/** Writes text to stdout (its command hints as this person types them). */
export function writeStdout(text: string): void {
  writeAll(Deno.stdout, new TextEncoder().encode(asTyped(text)));
}

/** Writes text to stderr (its command hints as this person types them). */
export function writeStderr(text: string): void {
  writeAll(Deno.stderr, new TextEncoder().encode(asTyped(text)));
}
