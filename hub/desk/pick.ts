/**
 * Deciding what a terminal conversation opens before anything opens: the session
 * (`--session ID`, `--resume [ID]` or a new one) and the role (`--role`, the one the
 * resumed session remembers, or `brain`), and whether that role has its key. Each
 * refusal is one sentence (exit 2), so `agent chat` and `agent tui` stop before the
 * ledger, the tools or a model load.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import { hasRole } from "../config/roles.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { AgentPaths } from "../paths.ts";
import { UserError } from "../user_error.ts";
import { isValidId, newSessionId, openSessionStore, type SessionStore } from "../sessions/mod.ts";
import { chooseTarget, knownRole, missingCredentialSentence } from "../router/targets.ts";
import { t } from "./_messages.ts";

/** What a terminal conversation is opened with (chat's and the TUI's options). */
export interface PickOptions {
  config: AgentConfig;
  env: Readonly<Record<string, string | undefined>>;
  paths: AgentPaths;
  lang: Lang;
  /** `--role`. */
  role?: string | undefined;
  /** `--resume [ID]`: `true` when bare. */
  resume?: string | true | undefined;
  /** `--session ID`. */
  session?: string | undefined;
  /** @default the store `[sessions] backend` names */
  sessions?: SessionStore | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
}

/** The session and role a conversation opens with. */
export interface PickedSession {
  sessionId: string;
  /** The session existed and has messages. */
  resumed: boolean;
  /** A line to show first (`--resume` found nothing to resume). */
  notice?: string;
  role: string;
  /** The role the command line fixed (`--role`), which `/resume` keeps. */
  fixedRole: string | undefined;
  sessions: SessionStore;
}

/**
 * Decides the session and the role, before anything opens.
 *
 * @throws {UserError} exit 2: an invalid or unknown session, an unknown role.
 */
export async function pickSession(options: PickOptions): Promise<PickedSession> {
  const lang = options.lang;
  const now = options.now ?? Date.now;
  const sessions = options.sessions ??
    openSessionStore(options.config, options.env, options.paths);
  const picked = await chooseSession(options, sessions, now);
  if ("refused" in picked) throw new UserError(picked.refused, 2);
  const remembered = picked.resumed ? (await sessions.getMeta(picked.sessionId)).role : undefined;
  const role = options.role ??
    (typeof remembered === "string" && hasRole(options.config, remembered) ? remembered : "brain");
  if (!hasRole(options.config, role)) throw new UserError(t(lang, "unknown_role", { role }), 2);
  return { ...picked, role, fixedRole: options.role, sessions };
}

/** The sentence for `role`'s missing credential (after its fallback), if one is missing. */
export function missingCredentialOf(
  options: { config: AgentConfig; env: Readonly<Record<string, string | undefined>> } & {
    logger: Logger;
    lang: Lang;
  },
  role: string,
): string | undefined {
  // The router's own choice (a fallback with its keys answers), without loading the
  // call chain: a refusal here costs no model SDK, no tools, no zod.
  const roles = options.config.models.roles;
  const config = knownRole(
    hasRole(options.config, role) ? roles[role] : undefined,
    options.lang,
    role,
  );
  const choice = chooseTarget(role, config, { env: options.env, logger: options.logger });
  return missingCredentialSentence(options.lang, role, choice);
}

async function chooseSession(
  options: PickOptions,
  sessions: SessionStore,
  now: () => number,
): Promise<{ sessionId: string; resumed: boolean; notice?: string } | { refused: string }> {
  const lang = options.lang;
  const explicit = options.session ??
    (typeof options.resume === "string" ? options.resume : undefined);
  if (explicit !== undefined) {
    if (!isValidId(explicit)) {
      return { refused: t(lang, "invalid_session", { session: explicit }) };
    }
    const known = await sessions.getSession(explicit) !== undefined;
    if (!known && options.session === undefined) {
      return { refused: t(lang, "unknown_session", { session: explicit }) };
    }
    return { sessionId: explicit, resumed: known };
  }
  if (options.resume === true) {
    const latest = (await sessions.listSessions(200)).find((s) => s.message_count > 0);
    if (latest) return { sessionId: latest.session_id, resumed: true };
    const sessionId = newSessionId("chat", now());
    return { sessionId, resumed: false, notice: t(lang, "no_resume", { session: sessionId }) };
  }
  return { sessionId: newSessionId("chat", now()), resumed: false };
}
