/**
 * `agent init`: creates `agent.toml` from the shipped template, the persona files and
 * `.env.example` in the agent home (the work is `setupHome()` in `hub/config/setup.ts`).
 * Existing files are kept unless `--force`, which overwrites `agent.toml` and
 * `persona/persona.md` only.
 *
 * @module
 */
import type { Command } from "commander";
import { isLang, type Lang } from "@agent/hub/base";
import { type AgentPaths, resolvePaths } from "@agent/hub/base";
import { readEnvFileSync } from "@agent/hub/base";
import { uiLangOf } from "../_setup.ts";
import type { ShippedProvider } from "@agent/hub/config";
import { SETUP_PROVIDERS, setupHome, setupNeedsLanguage } from "@agent/hub/setup";
import { type CommandModule, UsageError } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { t } from "./_messages.ts";

/** Options of `agent init`, as commander parses them. */
export interface InitOptions {
  home?: string;
  provider?: string;
  language?: string;
  profile?: string;
  yes?: boolean;
  force?: boolean;
}

/** `agent init`. */
export const command: CommandModule = {
  name: "init",
  summary: {
    en: t("en", "init_summary"),
    tr: t("tr", "init_summary"),
  },
  configure(cmd: Command, lang: Lang) {
    cmd
      .option("--home <dir>", t(lang, "opt_home"))
      .option("--provider <name>", t(lang, "opt_provider"))
      .option("--language <lang>", t(lang, "opt_language"))
      .option("--profile <name>", t(lang, "opt_profile"))
      .option("-y, --yes", t(lang, "opt_yes"))
      .option("--force", t(lang, "opt_force"));
  },
  // `agent init --yes --provider fake`, the form scripts and tests run, skips commander.
  plainFlags: ["--yes", "--force"],
  plainOptions: ["--home", "--provider", "--language", "--profile"],
  run(ctx, _args, opts) {
    return runInit(ctx, opts as InitOptions);
  },
};

async function runInit(ctx: CommandContext, opts: InitOptions): Promise<number> {
  let lang = ctx.lang;
  const provider = opts.provider;
  if (provider !== undefined && !(SETUP_PROVIDERS as readonly string[]).includes(provider)) {
    throw new UsageError(t(lang, "bad_provider", { value: provider }));
  }
  if (opts.language !== undefined && !isLang(opts.language)) {
    throw new UsageError(t(lang, "bad_language", { value: opts.language }));
  }
  if (opts.profile !== undefined && !/^[A-Za-z0-9._-]+$/.test(opts.profile)) {
    throw new UsageError(t(lang, "bad_profile", { value: opts.profile }));
  }
  if (opts.home !== undefined && opts.home.trim() === "") {
    throw new UsageError(t(lang, "empty_home"));
  }
  const paths = opts.home === undefined
    ? ctx.paths
    : resolvePaths({ home: opts.home, env: ctx.env });
  // Another home speaks its own language (its .env, its [ui] lang) unless --lang or
  // AGENT_LANG says otherwise; else `init --home X --force` would reset X's language.
  if (opts.home !== undefined) lang = homeLang(paths, ctx.processEnv);
  const force = opts.force === true;
  const language: Lang | undefined = isLang(opts.language)
    ? opts.language
    : opts.yes !== true && await setupNeedsLanguage(paths, force)
    ? await askLanguage(lang)
    : lang;
  if (language === undefined) {
    // Ctrl-C at the question: the user stopped the setup, so nothing is written.
    ctx.err(t(lang, "init_abandoned"));
    return 130;
  }
  // The rest of the setup speaks the language just chosen.
  lang = language;

  let result;
  try {
    result = await setupHome(paths, {
      ...(provider === undefined ? {} : { provider: provider as ShippedProvider }),
      ...(opts.profile === undefined ? {} : { profile: opts.profile }),
      language,
      force,
      env: ctx.processEnv,
    });
  } catch (error) {
    // A home that is a file, or a directory that cannot be written: one sentence.
    if (!isFileSystemError(error)) throw error;
    ctx.err(t(lang, "init_failed", { path: paths.home, detail: error.message }));
    return 1;
  }
  for (const step of result.steps) ctx.out(t(lang, step.action, { path: step.path }));
  if (result.profile !== undefined) {
    const key = result.profile.action === "set" ? "profile_set" : "profile_kept";
    ctx.out(t(lang, key, { name: result.profile.name, path: paths.envFile }));
  }
  if (!result.wroteConfig) {
    ctx.out(t(lang, "init_provider_kept"));
  } else {
    ctx.out(t(lang, "init_provider", { provider: result.provider, ...result.models }));
    if (result.missingVariable !== undefined) {
      ctx.out(t(lang, "init_need_key", { variable: result.missingVariable, path: paths.envFile }));
      return 0;
    }
  }
  ctx.out(t(lang, "init_next"));
  return 0;
}

/** The language of the home at `paths`: `AGENT_LANG`, its `.env`, its `[ui] lang`, else en. */
function homeLang(paths: AgentPaths, env: Readonly<Record<string, string>>): Lang {
  const fromEnv = env.AGENT_LANG;
  if (isLang(fromEnv)) return fromEnv;
  const fromFile = readEnvFileSync(paths.envFile).AGENT_LANG;
  return isLang(fromFile) ? fromFile : uiLangOf(paths.configFile);
}

/** The language chosen on the terminal; `undefined` when the user pressed Ctrl-C. */
async function askLanguage(lang: Lang): Promise<Lang | undefined> {
  // Without a terminal nothing can answer: take the run's language (default en).
  if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) return lang;
  const { select } = await import("@inquirer/prompts");
  try {
    return await select<Lang>({
      message: t(lang, "ask_language"),
      choices: [
        { name: "English (en)", value: "en" },
        { name: "Türkçe (tr)", value: "tr" },
      ],
      default: lang,
    });
  } catch (error) {
    if (error instanceof Error && error.name === "ExitPromptError") return undefined;
    // A terminal that went away: keep the default rather than fail the setup.
    return lang;
  }
}

/** Whether `error` is one of Deno's file-system errors (NotADirectory, PermissionDenied, ...). */
function isFileSystemError(error: unknown): error is Error {
  return Object.values(Deno.errors).some((kind) => error instanceof kind);
}
