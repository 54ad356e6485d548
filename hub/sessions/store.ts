/**
 * The session store interface, in the shape of the spine's cloud session routes
 * (`/hub/sessions/...`): sessions with meta, agents, messages with integer ids and
 * events. Bodies (`data`) are opaque JSON; the store never interprets them. A file
 * store ({@linkcode FileSessionStore}) keeps them locally; a spine-backed store
 * speaks the same routes over HTTP.
 *
 * @module
 */

import { isSessionId, SESSION_ID_PATTERN } from "@agent/net";

/** Session and agent ids: `^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`. */
export const ID_PATTERN: RegExp = SESSION_ID_PATTERN;

/** Whether `id` is a valid session or agent id. */
export function isValidId(id: string): boolean {
  return isSessionId(id);
}

/** One line of a session listing. */
export interface SessionSummary {
  session_id: string;
  /** ISO 8601 with milliseconds and `Z`. */
  created_at: string;
  /** ISO 8601 with milliseconds and `Z`; every write refreshes it. */
  updated_at: string;
  meta: Record<string, unknown>;
  /** Messages over every agent of the session. */
  message_count: number;
}

/** The outcome of a create: created, already there (409), or the parent is missing (404). */
export type CreateOutcome = "created" | "exists" | "missing";

/** A session store. Every method throws `TypeError` for an invalid id (HTTP 400). */
export interface SessionStore {
  /** `POST /hub/sessions`: creates a session with `data`. */
  createSession(sessionId: string, data: unknown): Promise<Exclude<CreateOutcome, "missing">>;
  /** `GET /hub/sessions?limit=`: most recently updated first; `limit` 1..200, default 20. */
  listSessions(limit?: number): Promise<SessionSummary[]>;
  /** `GET /hub/sessions/<sid>`: the session's data, or `undefined`. */
  getSession(sessionId: string): Promise<unknown | undefined>;
  /**
   * `PATCH /hub/sessions/<sid>/meta`: shallow merge (a null value is stored); creates
   * the session when missing. Returns the merged meta.
   */
  patchMeta(sessionId: string, meta: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** `GET /hub/sessions/<sid>/meta`: `{}` when missing. */
  getMeta(sessionId: string): Promise<Record<string, unknown>>;
  /** `POST /hub/sessions/<sid>/agents`. */
  createAgent(sessionId: string, agentId: string, data: unknown): Promise<CreateOutcome>;
  /** `GET /hub/sessions/<sid>/agents/<aid>`. */
  getAgent(sessionId: string, agentId: string): Promise<unknown | undefined>;
  /** `PUT /hub/sessions/<sid>/agents/<aid>`: `false` when the agent is missing. */
  putAgent(sessionId: string, agentId: string, data: unknown): Promise<boolean>;
  /** `POST .../agents/<aid>/messages`: `messageId` is an integer at least 0. */
  createMessage(
    sessionId: string,
    agentId: string,
    messageId: number,
    data: unknown,
  ): Promise<CreateOutcome>;
  /** `GET .../messages/<mid>`. */
  getMessage(sessionId: string, agentId: string, messageId: number): Promise<unknown | undefined>;
  /** `PUT .../messages/<mid>`: `false` when the message is missing. */
  putMessage(
    sessionId: string,
    agentId: string,
    messageId: number,
    data: unknown,
  ): Promise<boolean>;
  /**
   * `GET .../messages?offset=&limit=`: ordered by message id; `undefined` without the
   * agent. `limit` defaults to all, at most 10 000.
   */
  listMessages(
    sessionId: string,
    agentId: string,
    options?: { offset?: number; limit?: number },
  ): Promise<unknown[] | undefined>;
  /** `POST /hub/sessions/<sid>/events`: creates the session when missing. */
  addEvent(sessionId: string, data: unknown): Promise<void>;
  /** `GET /hub/sessions/<sid>/events`: insertion order; `[]` for a missing session. */
  listEvents(sessionId: string): Promise<unknown[]>;
}

/** The data of a session created implicitly (by meta or an event). */
export function implicitSessionData(sessionId: string, nowIso: string): Record<string, unknown> {
  return { session_id: sessionId, session_type: "AGENT", created_at: nowIso, updated_at: nowIso };
}

/** A message listing's range: `offset` at least 0, `limit` 0 to 10 000 (all by default). */
export function messageRange(
  options: { offset?: number; limit?: number } = {},
): { offset: number; limit: number } {
  return {
    offset: Math.max(0, Math.trunc(options.offset ?? 0)),
    limit: Math.min(10_000, Math.max(0, Math.trunc(options.limit ?? 10_000))),
  };
}
