/**
 * The shape of `agent doctor` checks.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import type { AgentPaths } from "../paths.ts";
import type { AgentConfig } from "../config/types.ts";
import type { ConfigError } from "../config/error.ts";
import type { Registry } from "../components/registry.ts";

/** One line of `agent doctor`: `<status> <name>: <detail>`. */
export interface CheckResult {
  name: string;
  status: "ok" | "warn" | "info" | "fail";
  detail: string;
}

/** What every check reads. Checks never build a model client and never call a provider. */
export interface DoctorContext {
  paths: AgentPaths;
  /** `.env` merged with the process environment. */
  env: Readonly<Record<string, string>>;
  lang: Lang;
  /** The validated configuration; `undefined` when it is missing or invalid. */
  config: AgentConfig | undefined;
  /** Why there is no configuration, when there is none. */
  configError: ConfigError | undefined;
  /** The time of the run (epoch ms), for checks that show times. */
  now: number;
  /**
   * The component registry (built-ins, the CLI's commands and `[components] modules`),
   * loaded at most once per run by whoever builds the context.
   */
  registry(): Promise<Registry>;
  /**
   * The spine version of the kit this agent deploys (`kit/spine/VERSION`), given by the
   * CLI, which holds the kit; the network check compares the spine's with it.
   */
  spineKitVersion?: string | undefined;
  /** `agent doctor --probe`: checks may log in to the servers they name (IMAP, SMTP). */
  probe?: boolean | undefined;
}

/** A check: zero or more result lines. A check that throws becomes one `fail` line. */
export type Check = (ctx: DoctorContext) => Promise<CheckResult[]>;
