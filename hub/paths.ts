/**
 * Where the agent keeps its files: the home (configuration, keys, persona) and the
 * data directory (ledger, sessions, logs, network state, the hub's lock).
 *
 * @module
 */

/** Every path the agent reads or writes, resolved once per run. */
export interface AgentPaths {
  /** `AGENT_HOME`, default `~/.agent`. */
  home: string;
  /** `AGENT_DATA_DIR`, default `<home>/data`; always honoured when set. */
  dataDir: string;
  /** `<home>/agent.toml` */
  configFile: string;
  /** `<home>/.env` (mode 0600) */
  envFile: string;
  /** `<home>/.env.example` (variable names only) */
  envExampleFile: string;
  /** `<home>/persona` */
  personaDir: string;
  /** `<dataDir>/spend.sqlite3` (mode 0600) */
  ledgerFile: string;
  /** `<dataDir>/sessions` */
  sessionsDir: string;
  /** `<dataDir>/memory.sqlite3` (mode 0600): what the agent remembers */
  memoryFile: string;
  /** `<dataDir>/logs/agent.log` */
  logFile: string;
  /** `<dataDir>/net` (mode 0700, files 0600) */
  netDir: string;
  /** `<dataDir>/hub.lock` */
  hubLockFile: string;
  /** `<dataDir>/hub.token` (mode 0600): the control API's bearer token, written at each start */
  hubTokenFile: string;
}

/** Options for {@linkcode resolvePaths}. */
export interface ResolvePathsOptions {
  /** `--home DIR`; beats `AGENT_HOME`. */
  home?: string | undefined;
  /** The environment to read `AGENT_HOME`, `AGENT_DATA_DIR` and `HOME` from. */
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * Resolves the agent's paths from `--home`, `AGENT_HOME`, `AGENT_DATA_DIR` and `HOME`.
 *
 * @example
 * ```ts
 * import { resolvePaths } from "./paths.ts";
 * const p = resolvePaths({ env: { HOME: "/u" } });
 * if (p.ledgerFile !== "/u/.agent/data/spend.sqlite3") throw new Error(p.ledgerFile);
 * ```
 */
export function resolvePaths(options: ResolvePathsOptions): AgentPaths {
  const env = options.env;
  const userHome = env.HOME ?? env.USERPROFILE ?? ".";
  const home = absolute(
    expandTilde(options.home ?? nonEmpty(env.AGENT_HOME) ?? `${userHome}/.agent`, userHome),
  );
  const dataDir = absolute(expandTilde(nonEmpty(env.AGENT_DATA_DIR) ?? `${home}/data`, userHome));
  return {
    home,
    dataDir,
    configFile: `${home}/agent.toml`,
    envFile: `${home}/.env`,
    envExampleFile: `${home}/.env.example`,
    personaDir: `${home}/persona`,
    ledgerFile: `${dataDir}/spend.sqlite3`,
    sessionsDir: `${dataDir}/sessions`,
    memoryFile: `${dataDir}/memory.sqlite3`,
    logFile: `${dataDir}/logs/agent.log`,
    netDir: `${dataDir}/net`,
    hubLockFile: `${dataDir}/hub.lock`,
    hubTokenFile: `${dataDir}/hub.token`,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

function expandTilde(path: string, userHome: string): string {
  if (path === "~") return userHome;
  if (path.startsWith("~/")) return `${userHome}${path.slice(1)}`;
  return path;
}

function absolute(path: string): string {
  if (path.startsWith("/")) return trimSlash(path);
  const cwd = typeof Deno !== "undefined" ? Deno.cwd() : "/";
  return trimSlash(`${cwd}/${path.replace(/^\.\//, "")}`);
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}
