/**
 * What a person may pick from, as every channel offers it: the recent sessions (one
 * list, the one `/resume` prints, so every channel counts the same sessions) and the
 * roles with where each goes. A conversation's `choices(kind)` returns these; a
 * plug-in may add a kind of its own (`settings`).
 *
 * @module
 */
import { formatTime } from "../i18n.ts";
import type { SessionStore } from "../sessions/mod.ts";

/** How many sessions `/resume` lists and a session picker offers. */
export const SESSIONS_LISTED = 20;

/** One thing a person may pick. */
export interface Choice {
  /** What picking it passes on (a session id, a role, a variable's name). */
  value: string;
  /** One line that names it, in the conversation's language. */
  label: string;
  /** It is the one in use now (the current role). */
  current?: boolean;
  /** A state a picker shows beside it (a credential: `needed`, `set`, `optional`). */
  state?: string;
}

/** A session a person may go back to. */
export interface SessionChoice extends Choice {
  /** When it last changed, `DD.MM.YYYY HH:MM` in Europe/Istanbul. */
  time: string;
  /** How many messages it holds. */
  count: number;
  /** Its title, or `""`. */
  title: string;
}

/** Where a role goes. */
export interface RoleTarget {
  provider: string;
  model: string;
}

/** The recent sessions, newest first (at most {@linkcode SESSIONS_LISTED}). */
export async function listSessions(sessions: SessionStore): Promise<SessionChoice[]> {
  const list = await sessions.listSessions(SESSIONS_LISTED);
  return list.map((s) => {
    const time = formatTime(Date.parse(s.updated_at));
    const title = typeof s.meta.title === "string" ? s.meta.title : "";
    return {
      value: s.session_id,
      label: `${time} · ${title === "" ? s.session_id : title}`,
      time,
      count: s.message_count,
      title,
    };
  });
}

/** The roles of `roles`, each with its target, `current` marking `role`. */
export function listRoles(
  roles: readonly string[],
  role: string,
  target: (role: string) => RoleTarget,
): Choice[] {
  return roles.map((r) => {
    const { provider, model } = target(r);
    return { value: r, label: `${r}  ${provider} ${model}`, current: r === role };
  });
}
