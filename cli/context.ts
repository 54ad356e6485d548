/**
 * What every command gets: resolved paths, the merged environment, the UI language,
 * the logger, output functions and the (cached) configuration.
 *
 * @module
 */
import type { AgentPaths } from "@agent/hub/base";
import type { Lang } from "@agent/hub/base";
import type { Logger } from "@agent/hub/base";
import type { AgentConfig } from "@agent/hub/config";
import { asTyped } from "./invocation.ts";

/** The run's context, built once by `cli/main.ts`. */
export interface CommandContext {
  /** Paths from `--home`, `AGENT_HOME` and `AGENT_DATA_DIR`. */
  paths: AgentPaths;
  /** `<home>/.env` merged with the process environment (the environment wins). */
  env: Record<string, string>;
  /** The process environment alone, without any `.env` (what `init` reads for another home). */
  processEnv: Readonly<Record<string, string>>;
  /** The UI language: `--lang`, `AGENT_LANG`, `[ui] lang`, else `en`. */
  lang: Lang;
  /** The profile: `--profile`, `AGENT_PROFILE`, else `home`. */
  profile: string;
  /** `-v/--verbose`: INFO goes to stderr as well. */
  verbose: boolean;
  /** The agent log, echoing warnings (and INFO with `-v`) to stderr. */
  logger: Logger;
  /** Writes one line (a newline is added) to stdout. */
  out(text: string): void;
  /** Writes one line (a newline is added) to stderr. */
  err(text: string): void;
  /** Loads and validates `agent.toml` once per run; throws `ConfigError`. */
  config(): Promise<AgentConfig>;
  /** The built-in command names, so `[components]` and doctor can name them. */
  commandNames: readonly string[];
}

/** Options for {@linkcode createContext}. */
export interface CreateContextOptions {
  paths: AgentPaths;
  env: Record<string, string>;
  /** @default `env` */
  processEnv?: Readonly<Record<string, string>>;
  lang: Lang;
  profile: string;
  verbose: boolean;
  logger: Logger;
  /** Loads the configuration; called at most once. */
  loadConfig: () => Promise<AgentConfig>;
  /** The built-in command names. */
  commandNames: readonly string[];
  /** @default writes to Deno.stdout */
  write?: (text: string) => void;
  /** @default writes to Deno.stderr */
  writeErr?: (text: string) => void;
}

/** Builds a {@linkcode CommandContext}; tests pass `write`/`writeErr` to capture output. */
export function createContext(options: CreateContextOptions): CommandContext {
  const encoder = new TextEncoder();
  const write = options.write ??
    ((text: string) => writeAll(Deno.stdout, encoder.encode(asTyped(text))));
  const writeErr = options.writeErr ??
    ((text: string) => writeAll(Deno.stderr, encoder.encode(asTyped(text))));
  let cached: Promise<AgentConfig> | undefined;
  return {
    paths: options.paths,
    env: options.env,
    processEnv: options.processEnv ?? options.env,
    lang: options.lang,
    profile: options.profile,
    verbose: options.verbose,
    logger: options.logger,
    out: (text) => write(`${text}\n`),
    err: (text) => writeErr(`${text}\n`),
    commandNames: options.commandNames,
    config: () => {
      cached ??= options.loadConfig();
      return cached;
    },
  };
}

/** Writes every byte; a reader that went away (`agent doctor | head`) is not an error. */
export function writeAll(target: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  try {
    let done = 0;
    while (done < bytes.length) done += target.writeSync(bytes.subarray(done));
  } catch (error) {
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
}
