/**
 * `agent init`: creates `agent.toml` from the shipped template, the persona files and
 * `.env.example` in the agent home. Existing files are kept unless `--force`, which
 * overwrites `agent.toml` and `persona/persona.md` only.
 *
 * @module
 */
import type { Command } from "commander";
import { isLang, type Lang } from "../../hub/i18n.ts";
import { resolvePaths } from "../../hub/paths.ts";
import { readEnvFile, setEnvKey, writeFileAtomic } from "../../hub/env_file.ts";
import { hasCredentials, missingCredential } from "../../hub/credentials.ts";
import { SHIPPED_MODELS, type ShippedProvider } from "../../hub/config/models.ts";
import { CONFIG_TEMPLATE } from "../../hub/config/template.ts";
import { type CommandModule, UsageError } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { ENV_EXAMPLE, PERSONA, rewriteTemplate, USER_EXAMPLE } from "./_init_files.ts";
import { t } from "./_messages.ts";

const INIT_PROVIDERS: readonly ShippedProvider[] = [
  "vendor-a",
  "vendor-b",
  "vendor-c",
  "vendor-d",
  "fake",
];

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
  run(ctx, _args, opts) {
    return runInit(ctx, opts as InitOptions);
  },
};

/** The first provider with credentials in `env`, in the spec's order, else `fake`. */
export function defaultProvider(
  env: Readonly<Record<string, string | undefined>>,
): ShippedProvider {
  for (const provider of ["vendor-a", "vendor-b", "vendor-c", "vendor-d"] as const) {
    if (hasCredentials(provider, env)) return provider;
  }
  return "fake";
}

async function runInit(ctx: CommandContext, opts: InitOptions): Promise<number> {
  let lang = ctx.lang;
  if (
    opts.provider !== undefined && !(INIT_PROVIDERS as readonly string[]).includes(opts.provider)
  ) {
    throw new UsageError(t(lang, "bad_provider", { value: opts.provider }));
  }
  if (opts.language !== undefined && !isLang(opts.language)) {
    throw new UsageError(t(lang, "bad_language", { value: opts.language }));
  }
  if (opts.profile !== undefined && !/^[A-Za-z0-9._-]+$/.test(opts.profile)) {
    throw new UsageError(t(lang, "bad_profile", { value: opts.profile }));
  }
  const paths = opts.home === undefined
    ? ctx.paths
    : resolvePaths({ home: opts.home, env: ctx.env });
  // Credentials count from the environment and <home>/.env of the home being set up.
  const env = { ...(await readEnvFile(paths.envFile)), ...Deno.env.toObject() };
  const provider = (opts.provider as ShippedProvider | undefined) ?? defaultProvider(env);
  const models = SHIPPED_MODELS[provider];

  await Deno.mkdir(paths.home, { recursive: true, mode: 0o700 });
  await Deno.mkdir(paths.personaDir, { recursive: true, mode: 0o700 });
  const force = opts.force === true;
  const configExists = await exists(paths.configFile);
  const personaFile = `${paths.personaDir}/persona.md`;
  const userExample = `${paths.personaDir}/user.example.md`;
  const userFile = `${paths.personaDir}/user.md`;
  const needsLanguage = force || !configExists || !(await exists(personaFile)) ||
    !(await exists(userExample)) || !(await exists(userFile));
  const language: Lang = isLang(opts.language)
    ? opts.language
    : needsLanguage && opts.yes !== true
    ? await askLanguage(ctx)
    : lang;
  // The rest of the setup speaks the language just chosen.
  lang = language;

  const report = (key: "created" | "overwrote" | "kept", path: string) =>
    ctx.out(t(lang, key, { path }));
  const config = rewriteTemplate(CONFIG_TEMPLATE, { provider, ...models, lang: language });
  const wroteConfig = await place(paths.configFile, config, force, report);
  await place(personaFile, PERSONA[language], force, report);
  await place(userExample, USER_EXAMPLE[language], false, report);
  await place(userFile, USER_EXAMPLE[language], false, report);
  await place(paths.envExampleFile, ENV_EXAMPLE, false, report);

  if (opts.profile !== undefined) {
    const current = (await readEnvFile(paths.envFile)).AGENT_PROFILE;
    if (current === undefined) {
      await setEnvKey(paths.envFile, "AGENT_PROFILE", opts.profile);
      ctx.out(t(lang, "profile_set", { name: opts.profile, path: paths.envFile }));
    } else {
      ctx.out(t(lang, "profile_kept", { name: current, path: paths.envFile }));
    }
  }

  if (wroteConfig) {
    ctx.out(t(lang, "init_provider", { provider, brain: models.brain, fast: models.fast }));
    const variable = missingCredential({ provider, params: {} }, env);
    if (variable !== undefined) {
      ctx.out(t(lang, "init_need_key", { variable, path: paths.envFile }));
      return 0;
    }
  } else {
    ctx.out(t(lang, "init_provider_kept"));
  }
  ctx.out(t(lang, "init_next"));
  return 0;
}

/**
 * Writes `text` to `path` unless it exists (or `overwrite`); reports what happened.
 * Returns whether the file was written.
 */
async function place(
  path: string,
  text: string,
  overwrite: boolean,
  report: (key: "created" | "overwrote" | "kept", path: string) => void,
): Promise<boolean> {
  const existed = await exists(path);
  if (existed && !overwrite) {
    report("kept", path);
    return false;
  }
  await writeFileAtomic(path, text, 0o600);
  report(existed ? "overwrote" : "created", path);
  return true;
}

async function askLanguage(ctx: CommandContext): Promise<Lang> {
  // Without a terminal nothing can answer: take the run's language (default en).
  if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) return ctx.lang;
  const { select } = await import("@inquirer/prompts");
  try {
    return await select<Lang>({
      message: t(ctx.lang, "ask_language"),
      choices: [
        { name: "English (en)", value: "en" },
        { name: "Türkçe (tr)", value: "tr" },
      ],
      default: ctx.lang,
    });
  } catch {
    // Ctrl-C or a closed terminal: keep the default rather than fail the setup.
    return ctx.lang;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
