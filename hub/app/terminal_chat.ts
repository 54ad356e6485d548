/**
 * `agent chat` as a process: everything that can stop it (an invalid role, an unknown
 * session, a missing key) is checked before anything opens and ends with one sentence
 * and exit 2; then the ledger, the desk (with the app's slash commands) and its `chat`
 * conversation open, and `TerminalChat` (`hub/channels/chat/`) runs it over a terminal
 * or a pipe, with the hub's owner events shown as they come. The checks load only what
 * they need (the session store, the role's credentials): a refusal is one sentence
 * without the desk, the tools or zod, which `_terminal_chat_run.ts` loads after them.
 *
 * @module
 */
import { UserError } from "../user_error.ts";
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { Ledger } from "../ledger/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { SessionStore } from "../sessions/mod.ts";
import type { AgentTool } from "../tools/mod.ts";
import type { ChatInput } from "../terminal/input.ts";
import { missingCredentialOf, pickSession } from "../desk/pick.ts";

/** Options for {@linkcode runChat}. */
export interface ChatOptions {
  config: AgentConfig;
  /** The merged environment; `/settings set` adds to it. */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  profile: string;
  logger: Logger;
  input: ChatInput;
  /** Writes text as is (answers stream through it). */
  write(text: string): void;
  /** Writes to standard error (a pipe's line for a tool that did not run). @default stderr */
  writeError?: ((text: string) => void) | undefined;
  /**
   * The terminal's width: answers are then drawn as Markdown, wrapped at words. Absent
   * (a pipe, a script), answers are written as the model sent them.
   */
  columns?: (() => number) | undefined;
  /** Paint Markdown styles with ANSI codes (a terminal without `NO_COLOR`). @default false */
  color?: boolean | undefined;
  /** `--role`. */
  role?: string | undefined;
  /** `--resume [ID]`: `true` when bare. */
  resume?: string | true | undefined;
  /** `--session ID`. */
  session?: string | undefined;
  /** Opens the spend ledger (after every check passed). */
  openLedger(): Ledger;
  /** The tools offered (the registry's enabled `agent.tools`), loaded after the checks. */
  tools(): Promise<AgentTool[]>;
  /** @default the store `[sessions] backend` names */
  sessions?: SessionStore | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
}

/**
 * Runs chat to the end; returns the exit code (0, or 130 when left with Ctrl-C at the
 * prompt or at an approval). What stops it before anything opens is thrown as a
 * `UserError`: exit 2 for an unknown session or role or a missing key, 1 when the
 * ledger cannot be opened.
 */
export async function runChat(options: ChatOptions): Promise<number> {
  // Checks before anything opens (or loads).
  const picked = await pickSession(options);
  const missing = missingCredentialOf(options, picked.role);
  // The Errors table's line, the same one `agent doctor` prints for this role.
  if (missing !== undefined) throw new UserError(`fail ${missing}`, 2);
  const { runPickedChat } = await import("./_terminal_chat_run.ts");
  return await runPickedChat(options, picked);
}
