/**
 * `agent chat` as a process: everything that can stop it (an invalid role, an unknown
 * session, a missing key) is checked before anything opens and ends with one sentence
 * and exit 2; then the ledger, the desk (with the app's slash commands) and its `chat`
 * conversation open, and {@linkcode TerminalChat} (`hub/channels/chat/`) runs it over a
 * terminal or a pipe, with the hub's owner events shown as they come.
 *
 * @module
 */
import { UserError } from "../user_error.ts";
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import { type Ledger, LedgerError } from "../ledger/mod.ts";
import { ledgerErrorSentence, ledgerReadOnlySentence } from "../spend/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { SessionStore } from "../sessions/mod.ts";
import type { AgentTool } from "../tools/mod.ts";
import type { ChatInput } from "../terminal/input.ts";
import {
  Desk,
  deskSentence as t,
  messageLines,
  missingCredentialOf,
  pickSession,
} from "../desk/mod.ts";
import { followHubEvents } from "../control/follow.ts";
import { TerminalChat } from "../channels/chat/chat.ts";
import { appCommands } from "./desk_commands.ts";
import { openMemory } from "./memory_store.ts";

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
  const { lang, input } = options;
  // --- checks before anything opens -------------------------------------------------
  const picked = await pickSession(options);
  const missing = missingCredentialOf(options, picked.role);
  // The Errors table's line, the same one `agent doctor` prints for this role.
  if (missing !== undefined) throw new UserError(`fail ${missing}`, 2);

  // --- open ---------------------------------------------------------------------------
  let ledger: Ledger;
  try {
    ledger = options.openLedger();
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    throw new UserError(ledgerErrorSentence(lang, error), 1, { cause: error });
  }
  const memory = openMemory(options.config, options.paths, lang, options.logger);
  const desk = new Desk({
    config: options.config,
    env: options.env,
    paths: options.paths,
    lang,
    logger: options.logger,
    ledger,
    tools: await options.tools(),
    commands: appCommands(),
    profile: options.profile,
    sessions: picked.sessions,
    memory,
    now: options.now,
  });
  const conversation = await desk.open("chat", {
    picked,
    ...(input.interactive ? { secret: (prompt: string) => input.secret(prompt) } : {}),
    columns: options.columns,
    approvals: input.interactive ? "ask" : "deny",
  });
  const encoder = new TextEncoder();
  const chat = new TerminalChat(conversation, {
    lang,
    input,
    write: options.write,
    writeError: options.writeError ?? ((text) => Deno.stderr.writeSync(encoder.encode(text))),
    columns: options.columns,
    color: options.color,
  });
  // A home this process may not write: budgets are checked, the calls cannot be counted.
  if (ledger.readOnly) chat.line(ledgerReadOnlySentence(lang, ledger.file));
  const following = new AbortController();
  try {
    if (input.interactive) {
      const now = conversation.snapshot();
      chat.line(t(lang, "header", {
        session: now.sessionId,
        role: now.role,
        provider: now.provider,
        model: now.model,
      }));
      if (picked.resumed) {
        const history = messageLines(await conversation.history());
        chat.line(t(lang, "resumed", { session: picked.sessionId, count: history.length }));
      }
      if (picked.notice) chat.line(picked.notice);
      // What the hub tells the owner meanwhile (a contact request) shows as it happens.
      void followHubEvents({
        port: options.config.hub.port,
        dataDir: options.paths.dataDir,
        signal: following.signal,
        onEvent: (event) => chat.ownerEvent(event),
      });
    }
    return await chat.run();
  } finally {
    following.abort();
    chat.close();
    await desk.close();
    input.close();
    memory?.close();
    ledger.close();
  }
}
