/**
 * `/hub/sessions/...`: chat sessions in the relational store (`DB`). Bodies are opaque
 * JSON kept as text; the spine never interprets them. Times are ISO 8601 with
 * milliseconds and `Z`, and every write refreshes the session's `updated_at`.
 *
 * @module
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types/index.ts";
import { HttpError, isSessionId, json } from "@agent/net";
import { type CloudCall, type CloudRoutes, db } from "./stores.ts";
import { checkId, decodeSegment, field, intParam, messageId, readObject } from "./body.ts";

/** The most sessions one listing returns, and its default. */
export const SESSION_LIST_MAX = 200;
const SESSION_LIST_DEFAULT = 20;
/** The most messages one listing returns. */
export const MESSAGE_LIST_MAX = 10_000;

function sid(segment: string | undefined): string {
  return checkId(decodeSegment(segment ?? ""), isSessionId, "session id");
}

function aid(segment: string | undefined): string {
  return checkId(decodeSegment(segment ?? ""), isSessionId, "agent id");
}

function nowIso(): string {
  return new Date().toISOString();
}

/** The data of a session made by a meta patch or an event. */
function implicitData(sessionId: string, now: string): string {
  return JSON.stringify({
    session_id: sessionId,
    session_type: "AGENT",
    created_at: now,
    updated_at: now,
  });
}

class Store {
  constructor(readonly db: D1Database) {}

  touch(sessionId: string, now: string): D1PreparedStatement {
    return this.db.prepare(
      "UPDATE sessions SET updated_at = max(updated_at, ?2) WHERE session_id = ?1 AND changes() > 0",
    )
      .bind(sessionId, now);
  }

  ensure(sessionId: string, now: string): D1PreparedStatement {
    return this.db.prepare(
      "INSERT OR IGNORE INTO sessions (session_id, data, meta, created_at, updated_at) " +
        "VALUES (?1, ?2, '{}', ?3, ?3)",
    ).bind(sessionId, implicitData(sessionId, now), now);
  }

  async hasSession(sessionId: string): Promise<boolean> {
    return (await this.db.prepare("SELECT 1 AS x FROM sessions WHERE session_id = ?1")
      .bind(sessionId).first()) !== null;
  }

  async hasAgent(sessionId: string, agentId: string): Promise<boolean> {
    return (await this.db.prepare(
      "SELECT 1 AS x FROM session_agents WHERE session_id = ?1 AND agent_id = ?2",
    ).bind(sessionId, agentId).first()) !== null;
  }
}

function created(body: Record<string, unknown>): Response {
  return json(body, 201);
}

/** Adds every `/hub/sessions` route. */
export function addSessionRoutes(routes: CloudRoutes): CloudRoutes {
  const at = "/hub/sessions";
  const one = `${at}/:session`;
  const agent = `${one}/agents/:agent`;
  const store = (call: CloudCall) => new Store(db(call.env));
  return routes
    .on("GET", at, (_request, { url, context }) => listSessions(url, store(context)))
    .post(at, (request, { context }) => createSession(request, store(context)))
    .on("GET", one, async (_request, { params, context }) => {
      const sessionId = sid(params.session);
      const row = await db(context.env).prepare("SELECT data FROM sessions WHERE session_id = ?1")
        .bind(sessionId).first<{ data: string }>();
      if (row === null) throw new HttpError(404, "not_found");
      return json({ data: JSON.parse(row.data) });
    })
    .on(
      ["GET", "PATCH"],
      `${one}/meta`,
      (request, { params, context }) => meta(request, store(context), sid(params.session)),
    )
    .on(
      ["GET", "POST"],
      `${one}/events`,
      (request, { params, context }) => events(request, store(context), sid(params.session)),
    )
    .post(
      `${one}/agents`,
      (request, { params, context }) => createAgent(request, store(context), sid(params.session)),
    )
    .on(
      ["GET", "PUT"],
      agent,
      (request, { params, context }) =>
        agentData(request, store(context), sid(params.session), aid(params.agent)),
    )
    .post(
      `${agent}/messages`,
      (request, { params, context }) =>
        createMessage(request, store(context), sid(params.session), aid(params.agent)),
    )
    .on(
      "GET",
      `${agent}/messages`,
      (_request, { url, params, context }) =>
        listMessages(url, store(context), sid(params.session), aid(params.agent)),
    )
    .on(["GET", "PUT"], `${agent}/messages/:message`, (request, { params, context }) =>
      message(
        request,
        store(context),
        sid(params.session),
        aid(params.agent),
        messageId(params.message),
      ));
}

async function createSession(request: Request, store: Store): Promise<Response> {
  const body = await readObject(request);
  const sessionId = checkId(field(body, "session_id"), isSessionId, "session id");
  const data = JSON.stringify(field(body, "data"));
  const now = nowIso();
  const result = await store.db.prepare(
    "INSERT OR IGNORE INTO sessions (session_id, data, meta, created_at, updated_at) " +
      "VALUES (?1, ?2, '{}', ?3, ?3)",
  ).bind(sessionId, data, now).run();
  if ((result.meta.changes ?? 0) === 0) throw new HttpError(409, "exists");
  return created({ session_id: sessionId });
}

interface SummaryRow {
  session_id: string;
  created_at: string;
  updated_at: string;
  meta: string;
  message_count: number;
}

async function listSessions(url: URL, store: Store): Promise<Response> {
  const limit = intParam(url.searchParams, "limit", 1, SESSION_LIST_MAX, SESSION_LIST_DEFAULT)!;
  const { results } = await store.db.prepare(
    "SELECT s.session_id, s.created_at, s.updated_at, s.meta, " +
      "(SELECT COUNT(*) FROM session_messages m WHERE m.session_id = s.session_id) AS message_count " +
      "FROM sessions s ORDER BY s.updated_at DESC, s.session_id ASC LIMIT ?1",
  ).bind(limit).all<
    {
      session_id: string;
      created_at: string;
      updated_at: string;
      meta: string;
      message_count: number;
    }
  >();
  return json({
    sessions: results.map((r: SummaryRow) => ({ ...r, meta: JSON.parse(r.meta) })),
  });
}

async function meta(request: Request, store: Store, sessionId: string): Promise<Response> {
  if (request.method === "GET") {
    const row = await store.db.prepare("SELECT meta FROM sessions WHERE session_id = ?1")
      .bind(sessionId).first<{ meta: string }>();
    return json({ meta: row === null ? {} : JSON.parse(row.meta) });
  }
  // PATCH (the route takes no other).
  const patch = field(await readObject(request), "meta");
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) {
    throw new HttpError(400, "bad_request", { detail: "'meta' must be an object" });
  }
  const now = nowIso();
  await store.ensure(sessionId, now).run();
  const row = await store.db.prepare("SELECT meta FROM sessions WHERE session_id = ?1")
    .bind(sessionId).first<{ meta: string }>();
  // A shallow merge: a null value is kept as null, not deleted.
  const merged = { ...(row ? JSON.parse(row.meta) : {}), ...patch };
  await store.db.batch([
    store.db.prepare("UPDATE sessions SET meta = ?2 WHERE session_id = ?1")
      .bind(sessionId, JSON.stringify(merged)),
    store.touch(sessionId, now),
  ]);
  return json({ meta: merged });
}

async function events(request: Request, store: Store, sessionId: string): Promise<Response> {
  if (request.method === "GET") {
    const { results } = await store.db.prepare(
      "SELECT data FROM session_events WHERE session_id = ?1 ORDER BY seq",
    ).bind(sessionId).all<{ data: string }>();
    return json({ events: results.map((r: { data: string }) => JSON.parse(r.data)) });
  }
  // POST (the route takes no other).
  const data = JSON.stringify(field(await readObject(request), "data"));
  const now = nowIso();
  await store.db.batch([
    store.ensure(sessionId, now),
    store.db.prepare("INSERT INTO session_events (session_id, data) VALUES (?1, ?2)")
      .bind(sessionId, data),
    store.touch(sessionId, now),
  ]);
  return created({ session_id: sessionId });
}

async function createAgent(request: Request, store: Store, sessionId: string): Promise<Response> {
  const body = await readObject(request);
  const agentId = checkId(field(body, "agent_id"), isSessionId, "agent id");
  const data = JSON.stringify(field(body, "data"));
  if (!(await store.hasSession(sessionId))) throw new HttpError(404, "not_found");
  const now = nowIso();
  const [insert] = await store.db.batch([
    store.db.prepare(
      "INSERT OR IGNORE INTO session_agents (session_id, agent_id, data) VALUES (?1, ?2, ?3)",
    ).bind(sessionId, agentId, data),
    store.touch(sessionId, now),
  ]);
  if ((insert!.meta.changes ?? 0) === 0) throw new HttpError(409, "exists");
  return created({ agent_id: agentId });
}

async function agentData(
  request: Request,
  store: Store,
  sessionId: string,
  agentId: string,
): Promise<Response> {
  if (request.method === "GET") {
    const row = await store.db.prepare(
      "SELECT data FROM session_agents WHERE session_id = ?1 AND agent_id = ?2",
    ).bind(sessionId, agentId).first<{ data: string }>();
    if (row === null) throw new HttpError(404, "not_found");
    return json({ data: JSON.parse(row.data) });
  }
  // PUT (the route takes no other).
  const data = JSON.stringify(field(await readObject(request), "data"));
  const [update] = await store.db.batch([
    store.db.prepare("UPDATE session_agents SET data = ?3 WHERE session_id = ?1 AND agent_id = ?2")
      .bind(sessionId, agentId, data),
    store.touch(sessionId, nowIso()),
  ]);
  if ((update!.meta.changes ?? 0) === 0) throw new HttpError(404, "not_found");
  return json({ agent_id: agentId });
}

async function createMessage(
  request: Request,
  store: Store,
  sessionId: string,
  agentId: string,
): Promise<Response> {
  const body = await readObject(request);
  const raw = field(body, "message_id");
  // In a body the id is a JSON number; only a path segment is text.
  const id = messageId(typeof raw === "number" ? raw : -1);
  const data = JSON.stringify(field(body, "data"));
  if (!(await store.hasAgent(sessionId, agentId))) throw new HttpError(404, "not_found");
  const [insert] = await store.db.batch([
    store.db.prepare(
      "INSERT OR IGNORE INTO session_messages (session_id, agent_id, message_id, data) " +
        "VALUES (?1, ?2, ?3, ?4)",
    ).bind(sessionId, agentId, id, data),
    store.touch(sessionId, nowIso()),
  ]);
  if ((insert!.meta.changes ?? 0) === 0) throw new HttpError(409, "exists");
  return created({ message_id: id });
}

async function listMessages(
  url: URL,
  store: Store,
  sessionId: string,
  agentId: string,
): Promise<Response> {
  const offset = intParam(url.searchParams, "offset", 0, Number.MAX_SAFE_INTEGER, 0)!;
  const limit = intParam(url.searchParams, "limit", 0, MESSAGE_LIST_MAX, MESSAGE_LIST_MAX)!;
  if (!(await store.hasAgent(sessionId, agentId))) throw new HttpError(404, "not_found");
  const { results } = await store.db.prepare(
    "SELECT data FROM session_messages WHERE session_id = ?1 AND agent_id = ?2 " +
      "ORDER BY message_id LIMIT ?3 OFFSET ?4",
  ).bind(sessionId, agentId, limit, offset).all<{ data: string }>();
  return json({ messages: results.map((r: { data: string }) => JSON.parse(r.data)) });
}

async function message(
  request: Request,
  store: Store,
  sessionId: string,
  agentId: string,
  id: number,
): Promise<Response> {
  if (request.method === "GET") {
    const row = await store.db.prepare(
      "SELECT data FROM session_messages WHERE session_id = ?1 AND agent_id = ?2 AND message_id = ?3",
    ).bind(sessionId, agentId, id).first<{ data: string }>();
    if (row === null) throw new HttpError(404, "not_found");
    return json({ data: JSON.parse(row.data) });
  }
  // PUT (the route takes no other).
  const data = JSON.stringify(field(await readObject(request), "data"));
  const [update] = await store.db.batch([
    store.db.prepare(
      "UPDATE session_messages SET data = ?4 WHERE session_id = ?1 AND agent_id = ?2 AND message_id = ?3",
    ).bind(sessionId, agentId, id, data),
    store.touch(sessionId, nowIso()),
  ]);
  if ((update!.meta.changes ?? 0) === 0) throw new HttpError(404, "not_found");
  return json({ message_id: id });
}
