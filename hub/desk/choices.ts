/**
 * What a person may pick from, as every channel offers it: the recent sessions (one
 * list, the one `/resume` prints, so every channel counts the same sessions) and the
 * roles with where each goes. A conversation's `choices(kind)` returns these; a
 * plug-in may add a kind of its own (`settings`).
 *
 * @module
 */
import { formatTime, type Lang, TIME_ZONE } from "../i18n.ts";
import type { SessionStore } from "../sessions/mod.ts";
import { oneLine } from "../text.ts";
import { t } from "./_messages.ts";

/** How much of a session's title its label keeps. */
const LABEL_TITLE = { max: 26, ellipsis: true } as const;

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

/** Options for {@linkcode listSessions}. */
export interface ListSessionsOptions {
  /** The language of the labels. @default "en" */
  lang?: Lang | undefined;
  /** Now, for "today" and "yesterday". @default Date.now() */
  nowMs?: number | undefined;
}

/**
 * The recent sessions, newest first (at most {@linkcode SESSIONS_LISTED}), each labelled
 * for a person: its title, how many messages, when (`save a note · 4 messages · today
 * 14:04`).
 */
export async function listSessions(
  sessions: SessionStore,
  options: ListSessionsOptions = {},
): Promise<SessionChoice[]> {
  const lang = options.lang ?? "en";
  const nowMs = options.nowMs ?? Date.now();
  const list = await sessions.listSessions(SESSIONS_LISTED);
  return list.map((s) => {
    const updated = Date.parse(s.updated_at);
    const time = formatTime(updated);
    const title = typeof s.meta.title === "string" ? s.meta.title : "";
    const count = s.message_count === 1
      ? t(lang, "session_messages_one")
      : t(lang, "session_messages_many", { n: s.message_count });
    return {
      value: s.session_id,
      label: t(lang, "session_choice", {
        // Short enough that the count and the time fit a messenger button (60 characters).
        title: title === "" ? t(lang, "session_untitled") : labelTitle(title),
        count,
        when: when(lang, updated, nowMs),
      }),
      time,
      count: s.message_count,
      title,
    };
  });
}

/** A title cut for a label, no space left before its "…". */
function labelTitle(title: string): string {
  return oneLine(title, LABEL_TITLE).replace(/\s+…$/, "…");
}

/** When a session last changed, as a person says it: `today 14:04`, `yesterday 09:30`, or the date. */
function when(lang: Lang, ms: number, nowMs: number): string {
  const day = (at: number) =>
    Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(TIME_ZONE);
  const then = day(ms);
  const today = day(nowMs).toPlainDate();
  const time = formatTime(ms).slice(-5);
  if (then.toPlainDate().equals(today)) return t(lang, "session_today", { time });
  if (then.toPlainDate().equals(today.subtract({ days: 1 }))) {
    return t(lang, "session_yesterday", { time });
  }
  return formatTime(ms);
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
