/**
 * `agent chat`: the terminal conversation. Everything that can stop it (invalid role,
 * unknown session, a missing key) is checked before anything opens, and ends with one
 * sentence and exit 2. Answers stream as they arrive. From a pipe it reads one
 * message per line, prints each answer and exits 0 at the end of input.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import { UserError } from "../user_error.ts";
import type { Logger } from "../log.ts";
import {
  type BudgetWarning,
  budgetWarningSentence,
  claimBudgetWarnings,
  type Ledger,
  LedgerError,
  ledgerErrorSentence,
} from "../money/mod.ts";
import type { AgentPaths } from "../paths.ts";
import { FileSessionStore, isValidId, type SessionStore } from "../sessions/mod.ts";
import { type AgentTool, ApprovalInterrupted, type Approver } from "../tools/mod.ts";
import { t } from "./_messages.ts";
import { type Agent, buildAgent } from "./agent.ts";
import { ModelRouter } from "./call.ts";
import type { ChatInput } from "./chat_input.ts";
import { TurnEndedError } from "./errors.ts";
import { type Conversation, describeRole, runSlashCommand } from "./slash_commands.ts";

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
  /** `--role`. */
  role?: string | undefined;
  /** `--resume [ID]`: `true` when bare. */
  resume?: string | true | undefined;
  /** `--session ID`. */
  session?: string | undefined;
  /** Opens the spend ledger (after every check passed). */
  openLedger(): Ledger;
  /**
   * The tools chat offers: the registry's enabled `agent.tools`, so installed ones
   * (`net_send`) reach the model. Loaded after every check passed.
   */
  tools(): Promise<AgentTool[]>;
  /** @default a FileSessionStore under `paths.sessionsDir` */
  sessions?: SessionStore | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
}

/**
 * Runs chat to the end; returns the exit code (0, or 130 when abandoned at an approval
 * prompt). What stops it before anything opens is thrown as a `UserError`: exit 2 for
 * an unknown session or role or a missing key, 1 when the ledger cannot be opened.
 */
export async function runChat(options: ChatOptions): Promise<number> {
  const lang = options.lang;
  const now = options.now ?? Date.now;
  const sessions = options.sessions ?? new FileSessionStore(options.paths.sessionsDir);
  const roles = options.config.models.roles;

  // --- checks before anything opens -------------------------------------------------
  const picked = await pickSession(options, sessions, now);
  if ("refused" in picked) throw new UserError(picked.refused, 2);
  const { sessionId, resumed, notice } = picked;
  const remembered = resumed ? (await sessions.getMeta(sessionId)).role : undefined;
  const role = options.role ??
    (typeof remembered === "string" && remembered in roles ? remembered : "brain");
  if (!(role in roles)) throw new UserError(t(lang, "unknown_role", { role }), 2);
  const missing = new ModelRouter({
    config: options.config,
    env: options.env,
    logger: options.logger,
    lang,
  }).missingCredentialSentence(role);
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
  const input = options.input;
  const tools = await options.tools();
  const approver: Approver = {
    approve(tool, args) {
      return input.confirm(t(lang, "chat_approve", { tool, args: short(JSON.stringify(args)) }));
    },
  };
  const make = agentMaker(options, { ledger, sessions, tools, approver, now });
  const chat: Conversation = {
    config: options.config,
    env: options.env,
    paths: options.paths,
    lang,
    profile: options.profile,
    sessions,
    ledger,
    agent: make(role),
    sessionId,
    fixedRole: options.role,
    rebuild: make,
    secret: (prompt) => input.secret(prompt),
    now,
  };
  const line = (text: string) => options.write(`${text}\n`);

  try {
    if (input.interactive) {
      line(t(lang, "chat_header", { session: sessionId, ...describeRole(chat.agent, role) }));
      if (resumed) {
        const count = (await chat.agent.history(sessionId)).length;
        line(t(lang, "chat_resumed", { session: sessionId, count }));
      }
    }
    if (notice && input.interactive) line(notice);
    for (;;) {
      const text = await input.readLine(input.interactive ? "› " : "");
      if (text === null) return 0;
      const trimmed = text.trim();
      if (trimmed === "") continue;
      if (trimmed.startsWith("/")) {
        const result = await runSlashCommand(chat, trimmed);
        for (const l of result.lines) line(l);
        if (result.quit) return 0;
        continue;
      }
      // A budget past its warning share is told once per period, before the answer.
      for (const warning of budgetWarnings(chat)) line(budgetWarningSentence(lang, warning));
      await oneTurn(chat.agent, chat.sessionId, text, options);
    }
  } catch (error) {
    if (error instanceof ApprovalInterrupted) {
      options.write("\n");
      return 130;
    }
    throw error;
  } finally {
    input.close();
    ledger.close();
  }
}

/** The session a chat opens: `--session`, `--resume [ID]` or a new one. */
async function pickSession(
  options: ChatOptions,
  sessions: SessionStore,
  now: () => number,
): Promise<{ sessionId: string; resumed: boolean; notice?: string } | { refused: string }> {
  const lang = options.lang;
  const explicit = options.session ??
    (typeof options.resume === "string" ? options.resume : undefined);
  if (explicit !== undefined) {
    if (!isValidId(explicit)) {
      return { refused: t(lang, "chat_invalid_session", { session: explicit }) };
    }
    const known = await sessions.getSession(explicit) !== undefined;
    if (!known && options.session === undefined) {
      return { refused: t(lang, "chat_unknown_session", { session: explicit }) };
    }
    return { sessionId: explicit, resumed: known };
  }
  if (options.resume === true) {
    const latest = (await sessions.listSessions(200)).find((s) => s.message_count > 0);
    if (latest) return { sessionId: latest.session_id, resumed: true };
    const sessionId = newSessionId(now());
    return { sessionId, resumed: false, notice: t(lang, "chat_no_resume", { session: sessionId }) };
  }
  return { sessionId: newSessionId(now()), resumed: false };
}

/** Builds chat's agent for a role, on channel `chat` with the owner's persona. */
function agentMaker(
  options: ChatOptions,
  open: {
    ledger: Ledger;
    sessions: SessionStore;
    tools: AgentTool[];
    approver: Approver;
    now: () => number;
  },
): (role: string) => Agent {
  const { config, env, paths, logger, lang } = options;
  return (role) =>
    buildAgent({
      config,
      env,
      paths,
      channel: "chat",
      role,
      tools: open.tools,
      approver: open.approver,
      persona: {
        personaFile: `${paths.personaDir}/persona.md`,
        userFile: `${paths.personaDir}/user.md`,
      },
      sessions: open.sessions,
      ledger: open.ledger,
      logger,
      lang,
      now: open.now,
      router: new ModelRouter({ config, env, ledger: open.ledger, logger, lang, now: open.now }),
    });
}

function budgetWarnings(chat: Conversation): BudgetWarning[] {
  try {
    return claimBudgetWarnings(chat.ledger, chat.config, chat.now(), { surface: "chat" });
  } catch {
    // A ledger that cannot be read is reported by the turn's own budget check.
    return [];
  }
}

async function oneTurn(agent: Agent, sessionId: string, text: string, options: ChatOptions) {
  const controller = new AbortController();
  const stop = options.input.onInterrupt(() => controller.abort());
  let wrote = false;
  try {
    const result = await agent.turn(sessionId, text, {
      signal: controller.signal,
      onText(chunk) {
        if (!wrote) chunk = chunk.replace(/^\s+/, "");
        if (chunk === "") return;
        wrote = true;
        options.write(chunk);
      },
      // A person sees which tool runs; a script reading one answer per line does not.
      onToolCall: options.input.interactive
        ? (tool) => {
          options.write(`${wrote ? "\n" : ""}${t(options.lang, "chat_tool_call", { tool })}\n`);
          wrote = false;
        }
        : undefined,
    });
    const end = result.notices.length > 0
      ? `${wrote ? "\n\n" : ""}${result.notices.join("\n")}\n`
      : "\n";
    options.write(end);
  } catch (error) {
    if (error instanceof TurnEndedError) {
      options.write(`${wrote ? "\n" : ""}${error.sentence}\n`);
    } else if (controller.signal.aborted && !(error instanceof ApprovalInterrupted)) {
      options.write(`${wrote ? "\n" : ""}${t(options.lang, "chat_cancelled")}\n`);
    } else throw error;
  } finally {
    stop();
  }
  if (options.input.interactive) options.write("\n");
}

/** A fresh session id: `chat-YYYYMMDD-HHMMSS-xxxx` (UTC). */
export function newSessionId(nowMs: number): string {
  const iso = new Date(nowMs).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `chat-${iso}-${crypto.randomUUID().slice(0, 4)}`;
}

function short(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
