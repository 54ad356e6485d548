/**
 * Sets up an agent home: `agent.toml` from the shipped template, the persona files,
 * `.env.example`, and optionally `AGENT_PROFILE` in `.env`. Used by `agent init` and
 * any setup screen, so both write the same files the same way.
 *
 * Existing files are kept unless `force`, which overwrites `agent.toml` and
 * `persona/persona.md` only; `user.md`, `user.example.md` and `.env.example` are
 * never overwritten. Files are written atomically with mode 0600, directories 0700.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import type { AgentPaths } from "../paths.ts";
import { readEnvFile, setEnvKey } from "../env_file.ts";
import { writeFileAtomic } from "../atomic_file.ts";
import { hasCredentials, missingCredential } from "../credentials.ts";
import { SHIPPED_MODELS, type ShippedModels, type ShippedProvider } from "./models.ts";
import { CONFIG_TEMPLATE } from "./template.ts";
import { CONFIG_TEMPLATE_TR, ENV_EXAMPLE_TR } from "./template_tr.ts";
import { ENV_EXAMPLE, PERSONA, rewriteTemplate, USER_EXAMPLE } from "./setup_files.ts";

/**
 * Providers `agent init --provider` accepts: those with a shipped model pair, in the
 * order the default provider is chosen (`fake` last).
 */
export const SETUP_PROVIDERS: readonly ShippedProvider[] = Object.keys(
  SHIPPED_MODELS,
) as ShippedProvider[];

/** Options for {@linkcode setupHome}. */
export interface SetupOptions {
  /** Provider of brain and fast. @default the first with credentials, else `fake` */
  provider?: ShippedProvider;
  /** Language of `[ui] lang` and the persona files. */
  language: Lang;
  /** Appended to `.env` as `AGENT_PROFILE` unless that is already set. */
  profile?: string;
  /** Overwrite `agent.toml` and `persona/persona.md`. @default false */
  force?: boolean;
  /** The process environment (credentials there count for the default provider). */
  env: Readonly<Record<string, string | undefined>>;
}

/** What happened to one file. */
export interface SetupStep {
  path: string;
  action: "created" | "overwrote" | "kept";
}

/** What {@linkcode setupHome} did. */
export interface SetupResult {
  steps: SetupStep[];
  provider: ShippedProvider;
  models: ShippedModels;
  /** Whether `agent.toml` was written (created or overwritten). */
  wroteConfig: boolean;
  /** `AGENT_PROFILE` in `.env`: set now, or kept with its existing value. */
  profile?: { name: string; action: "set" | "kept" };
  /** The first credential the chosen provider still needs, if any. */
  missingVariable?: string;
}

/** The first provider with credentials in `env`, in the spec's order, else `fake`. */
export function defaultProvider(
  env: Readonly<Record<string, string | undefined>>,
): ShippedProvider {
  for (const provider of SETUP_PROVIDERS) {
    if (provider !== "fake" && hasCredentials(provider, env)) return provider;
  }
  return "fake";
}

/** The persona files under the home. */
function personaFiles(paths: AgentPaths) {
  return {
    persona: `${paths.personaDir}/persona.md`,
    userExample: `${paths.personaDir}/user.example.md`,
    user: `${paths.personaDir}/user.md`,
  };
}

/** Whether a setup would write a language-dependent file (so the language matters). */
export async function setupNeedsLanguage(paths: AgentPaths, force: boolean): Promise<boolean> {
  if (force) return true;
  const files = personaFiles(paths);
  for (const path of [paths.configFile, files.persona, files.userExample, files.user]) {
    if (!(await exists(path))) return true;
  }
  return false;
}

/** Writes the home's files; see the module documentation for what is kept. */
export async function setupHome(paths: AgentPaths, options: SetupOptions): Promise<SetupResult> {
  // Credentials count from the environment and <home>/.env of the home being set up.
  const env = { ...(await readEnvFile(paths.envFile)), ...definedOnly(options.env) };
  const provider = options.provider ?? defaultProvider(env);
  const models = SHIPPED_MODELS[provider];
  const force = options.force === true;
  const files = personaFiles(paths);
  await Deno.mkdir(paths.home, { recursive: true, mode: 0o700 });
  await Deno.mkdir(paths.personaDir, { recursive: true, mode: 0o700 });

  const steps: SetupStep[] = [];
  // The files' comments in the chosen language.
  const turkish = options.language === "tr";
  const template = turkish ? CONFIG_TEMPLATE_TR : CONFIG_TEMPLATE;
  const config = rewriteTemplate(template, { provider, ...models, lang: options.language });
  const wroteConfig = await place(paths.configFile, config, force, steps);
  await place(files.persona, PERSONA[options.language], force, steps);
  await place(files.userExample, USER_EXAMPLE[options.language], false, steps);
  await place(files.user, USER_EXAMPLE[options.language], false, steps);
  await place(paths.envExampleFile, turkish ? ENV_EXAMPLE_TR : ENV_EXAMPLE, false, steps);

  const result: SetupResult = { steps, provider, models, wroteConfig };
  if (options.profile !== undefined) {
    const current = (await readEnvFile(paths.envFile)).AGENT_PROFILE;
    if (current === undefined) {
      await setEnvKey(paths.envFile, "AGENT_PROFILE", options.profile);
      result.profile = { name: options.profile, action: "set" };
    } else {
      result.profile = { name: current, action: "kept" };
    }
  }
  const missing = missingCredential({ provider, params: {} }, env);
  if (missing !== undefined) result.missingVariable = missing;
  return result;
}

/** Writes `text` to `path` unless it exists (or `overwrite`); returns whether it wrote. */
async function place(
  path: string,
  text: string,
  overwrite: boolean,
  steps: SetupStep[],
): Promise<boolean> {
  const existed = await exists(path);
  if (existed && !overwrite) {
    steps.push({ path, action: "kept" });
    return false;
  }
  await writeFileAtomic(path, text, { mode: 0o600, dirMode: 0o700 });
  steps.push({ path, action: existed ? "overwrote" : "created" });
  return true;
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
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
