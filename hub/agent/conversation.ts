/**
 * Opening a conversation with the agent, shared by chat and the TUI: the session
 * (`--session`, `--resume [ID]` or a new one) and the role are decided and checked
 * before anything opens; then the ledger, the tools and the agent.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import { UserError } from "../user_error.ts";
import type { Logger } from "../log.ts";
import {
  type BudgetWarning,
  claimBudgetWarnings,
  type Ledger,
  LedgerError,
  ledgerErrorSentence,
  type WarningSurface,
} from "../money/mod.ts";
import type { AgentPaths } from "../paths.ts";
import { isValidId, openSessionStore, type SessionStore } from "../sessions/mod.ts";
import type { AgentTool, Approver } from "../tools/mod.ts";
import { t } from "./_messages.ts";
import { type Agent, buildAgent } from "./agent.ts";
import { ModelRouter } from "./call.ts";
import type { Conversation } from "./slash_commands.ts";

/** What a conversation is opened with (chat's and the TUI's options). */
export interface ConversationOptions {
  config: AgentConfig;
  /** The merged environment; `/settings set` adds to it. */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  profile: string;
  logger: Logger;
  /** The ledger channel of its turns. @default "chat" */
  channel?: "chat" | "tui";
  /** `--role`. */
  role?: string | undefined;
  /** `--resume [ID]`: `true` when bare. */
  resume?: string | true | undefined;
  /** `--session ID`. */
  session?: string | undefined;
  /** Opens the spend ledger (after every check passed). */
  openLedger(): Ledger;
  /**
   * The tools offered: the registry's enabled `agent.tools`, so installed ones
   * (`net_send`) reach the model. Loaded after every check passed.
   */
  tools(): Promise<AgentTool[]>;
  /** @default the store `[sessions] backend` names (files under `paths.sessionsDir`) */
  sessions?: SessionStore | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
}

/** The session and role a conversation opens with. */
export interface PickedConversation {
  sessionId: string;
  /** The session existed and has messages. */
  resumed: boolean;
  /** A line to show first (`--resume` found nothing to resume). */
  notice?: string;
  role: string;
  sessions: SessionStore;
}

/**
 * Decides the session and the role, before anything opens.
 *
 * @throws {UserError} exit 2: an invalid or unknown session, an unknown role.
 */
export async function pickConversation(options: ConversationOptions): Promise<PickedConversation> {
  const lang = options.lang;
  const now = options.now ?? Date.now;
  const sessions = options.sessions ??
    openSessionStore(options.config, options.env, options.paths);
  const roles = options.config.models.roles;
  const picked = await pickSession(options, sessions, now);
  if ("refused" in picked) throw new UserError(picked.refused, 2);
  const remembered = picked.resumed ? (await sessions.getMeta(picked.sessionId)).role : undefined;
  const role = options.role ??
    (typeof remembered === "string" && remembered in roles ? remembered : "brain");
  if (!(role in roles)) throw new UserError(t(lang, "unknown_role", { role }), 2);
  return { ...picked, role, sessions };
}

/** The sentence for `role`'s missing credential (after its fallback), if one is missing. */
export function missingCredentialOf(
  options: Pick<ConversationOptions, "config" | "env" | "logger" | "lang">,
  role: string,
): string | undefined {
  return new ModelRouter({
    config: options.config,
    env: options.env,
    logger: options.logger,
    lang: options.lang,
  }).missingCredentialSentence(role);
}

/** How a conversation asks its owner (approvals, hidden input). */
export interface ConversationIo {
  approver: Approver;
  /** Asks for a secret without echoing it; absent where none can be asked (no terminal). */
  secret?: ((prompt: string) => Promise<string | null>) | undefined;
}

/**
 * Opens the ledger, loads the tools and builds the agent for `picked`.
 *
 * @throws {UserError} exit 1 when the ledger cannot be opened.
 */
export async function openConversation(
  options: ConversationOptions,
  picked: PickedConversation,
  io: ConversationIo,
): Promise<Conversation> {
  const now = options.now ?? Date.now;
  let ledger: Ledger;
  try {
    ledger = options.openLedger();
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    throw new UserError(ledgerErrorSentence(options.lang, error), 1, { cause: error });
  }
  const tools = await options.tools();
  const make = agentMaker(options, {
    ledger,
    sessions: picked.sessions,
    tools,
    approver: io.approver,
    now,
  });
  return {
    config: options.config,
    env: options.env,
    paths: options.paths,
    lang: options.lang,
    profile: options.profile,
    sessions: picked.sessions,
    ledger,
    agent: make(picked.role),
    sessionId: picked.sessionId,
    fixedRole: options.role,
    rebuild: make,
    ...(io.secret ? { secret: io.secret } : {}),
    now,
  };
}

/** The budget warnings `surface` tells before the next answer (each once per period). */
export function budgetWarningsFor(
  chat: Conversation,
  surface: WarningSurface = "chat",
): BudgetWarning[] {
  try {
    return claimBudgetWarnings(chat.ledger, chat.config, chat.now(), { surface });
  } catch {
    // A ledger that cannot be read is reported by the turn's own budget check.
    return [];
  }
}

/** A fresh session id: `chat-YYYYMMDD-HHMMSS-xxxx` (UTC). */
export function newSessionId(nowMs: number): string {
  const iso = new Date(nowMs).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `chat-${iso}-${crypto.randomUUID().slice(0, 4)}`;
}

/** The session a chat opens: `--session`, `--resume [ID]` or a new one. */
async function pickSession(
  options: ConversationOptions,
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
  options: ConversationOptions,
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
      channel: options.channel ?? "chat",
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
