/**
 * The hub's leaves, the light door a command needs to start: paths, the UI language
 * and its catalogues, the log, `.env` files, which credentials each provider needs, the
 * version, `UserError` and text for a terminal. Nothing here loads a parser, an SDK or a
 * database.
 *
 * @example
 * ```ts
 * import { resolvePaths } from "./base.ts";
 * const paths = resolvePaths({ home: "/tmp/agent-home", env: {} });
 * if (paths.configFile !== "/tmp/agent-home/agent.toml") throw new Error(paths.configFile);
 * ```
 *
 * The door names every export: what the CLI and the tests use, and the types those
 * functions take. The rest of the leaves (crash-safe writes, JSON lines) is the hub's.
 *
 * @module
 */

// Where a home keeps what (`agent.toml`, `.env`, the data folder, the log).
export { type AgentPaths, resolvePaths, type ResolvePathsOptions } from "./paths.ts";

// The UI language: English and Turkish catalogues, and times as the hub prints them.
export { catalogue, formatTime, isLang, type Lang, type Translator, type Vars } from "./i18n.ts";

// Counts grouped as the reader's language groups them (`1,234`, `1.234`).
export { formatCount } from "./numbers.ts";

// The log file every process of a home writes.
export { type Level, Logger, type LoggerOptions } from "./log.ts";

// `.env`: read it (with the environment on top) and set one key in place.
export { readEnvFile, readEnvFileSync, setEnvKey } from "./env_file.ts";

// Cloud mode's spine from `.env`, or the one line (exit 2) naming what is missing.
export { cloudTarget } from "./cloud_target.ts";

// Which credentials each provider needs: what `init`, the TUI's settings and the
// cloud deploy ask for.
export {
  CREDENTIAL_VARIABLES,
  type CredentialEnv,
  type CredentialLine,
  credentialLines,
  type CredentialRole,
  type CredentialSource,
  hasCredentials,
  missingCredential,
  type ProviderId,
  PROVIDERS,
} from "./credentials.ts";

// The flags `agent` runs with (the install line, the task, service files, tests).
export { AGENT_DENO_FLAGS } from "./deno_flags.ts";
// A test steps the TUI's approval guard by the same clock file a hub process reads.
export { testNow } from "./clock.ts";

// The version and the distributions `agent version` lists.
export { type Distribution, DISTRIBUTIONS, VERSION } from "./version.ts";

// A sentence for a person and its exit code; text from others made safe for a
// terminal line.
export { UserError } from "./user_error.ts";
export { oneLine, type OneLineOptions, printable } from "./text.ts";

// Text for a terminal: Markdown laid out as styled lines wrapped at words (chat and the
// TUI draw answers with it), and the width a string takes.
export {
  type BlockState,
  markdownLine,
  markdownLines,
  MarkdownStream,
  plainText,
  type Span,
  type SpanStyle,
  startState,
  type StyledLine,
} from "./terminal/markdown.ts";
export { displayWidth } from "./terminal/width.ts";
export { toolOutcomeLine } from "./terminal/tool_outcome.ts";
