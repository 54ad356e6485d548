/**
 * Reads `agent.toml` for a command run, fast: the file is read every time, but the
 * TOML parser and the zod schema load only when its text changed since the last
 * validated read. The validated result is kept at `<AGENT_DATA_DIR>/cache/config.json`
 * (0600), keyed by the exact text and by a fingerprint of the loader itself (the
 * version, and the loader modules' modification times when they are files), so a
 * new release or an edited schema never reads a stale entry. Only valid
 * configurations are kept; every error comes from a fresh parse.
 *
 * @module
 */
import type { AgentPaths } from "../paths.ts";
import type { Lang } from "../i18n.ts";
import type { AgentConfig } from "./types.ts";
import { ConfigError } from "./error.ts";
import { VERSION } from "../version.ts";
import { t } from "./_messages.ts";
import { writeFileAtomicSync } from "../atomic_file.ts";
import { errorMessage } from "@agent/net/common";

/** Options for {@linkcode loadConfig}. */
export interface LoadConfigOptions {
  /** Language of the error sentences. @default "en" */
  lang?: Lang;
}

interface CacheEntry {
  fingerprint: string;
  text: string;
  config: AgentConfig;
}

/** The modules whose code decides what a text validates to. */
const LOADER_MODULES = ["parse.ts", "_schema.ts", "types.ts", "template.ts", "tools_config.ts"];

/**
 * Reads and validates `paths.configFile`, reusing the last validated result while
 * the text and the loader are unchanged. Throws `ConfigError` (`kind` `"missing"` when
 * there is no file); every error comes from a fresh parse.
 */
export async function loadConfig(
  paths: AgentPaths,
  options: LoadConfigOptions = {},
): Promise<AgentConfig> {
  const lang = options.lang ?? "en";
  const file = "agent.toml";
  let text: string;
  try {
    text = await Deno.readTextFile(paths.configFile);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      // The home itself is missing (a typo in --home or AGENT_HOME): name it.
      const key = exists(paths.home) ? "not_found" : "no_home";
      throw new ConfigError(t(lang, key, { file, path: paths.configFile, home: paths.home }), {
        kind: "missing",
        cause: error,
      });
    }
    const detail = errorMessage(error);
    throw new ConfigError(t(lang, "unreadable", { file, detail }), { cause: error });
  }
  return await validateConfigText(paths, text, options);
}

/**
 * Validates `text` as `paths.configFile`'s next content, through the same cache as
 * {@linkcode loadConfig}: a command that writes `agent.toml` (`agent mcp add`) validates
 * what it writes once, and the next command reads it without loading the parser.
 * Throws `ConfigError`.
 */
export async function validateConfigText(
  paths: AgentPaths,
  text: string,
  options: LoadConfigOptions = {},
): Promise<AgentConfig> {
  const lang = options.lang ?? "en";
  const file = "agent.toml";
  const cacheFile = `${paths.dataDir}/cache/config.json`;
  const fingerprint = loaderFingerprint();
  const cached = readEntry(cacheFile);
  if (cached !== undefined && cached.fingerprint === fingerprint && cached.text === text) {
    return withRoles(cached.config, file, lang);
  }
  const { parseConfig } = await import("./parse.ts");
  const config = parseConfig(text, file, { lang });
  withRoles(config, file, lang);
  writeEntry(cacheFile, { fingerprint, text, config });
  return config;
}

/**
 * A home's configuration must name a role, or nothing could answer: an empty
 * `agent.toml` is refused here (a configuration parsed in parts, as tests do, is not).
 */
function withRoles(config: AgentConfig, file: string, lang: Lang): AgentConfig {
  if (Object.keys(config.models.roles).length > 0) return config;
  throw new ConfigError(t(lang, "no_roles", { file }));
}

function loaderFingerprint(): string {
  const parts = [VERSION];
  // Only in a checkout, where the loader's source can change under a kept cache: a
  // package, the bundle or a binary has no such files (the version stands for them).
  if (!import.meta.url.startsWith("file:") || !import.meta.url.endsWith("/hub/config/read.ts")) {
    return parts.join("|");
  }
  for (const name of LOADER_MODULES) {
    const url = new URL(`./${name}`, import.meta.url);
    try {
      parts.push(`${name}:${Deno.statSync(url).mtime?.getTime() ?? 0}`);
    } catch { /* a bundled build has no module files: the version stands for them */ }
  }
  return parts.join("|");
}

/** A missing, unreadable or half-written entry is simply a miss. */
function readEntry(file: string): CacheEntry | undefined {
  try {
    const value = JSON.parse(Deno.readTextFileSync(file));
    if (typeof value?.fingerprint !== "string" || typeof value?.text !== "string") return undefined;
    if (typeof value.config !== "object" || value.config === null) return undefined;
    return value as CacheEntry;
  } catch {
    return undefined;
  }
}

/** Atomic; a cache that cannot be written costs only speed. It needs no fsync. */
function writeEntry(file: string, entry: CacheEntry): void {
  try {
    writeFileAtomicSync(file, JSON.stringify(entry), { dirMode: 0o700, sync: false });
  } catch { /* see above */ }
}

/** Whether `path` exists (a folder or a file). */
function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
