/**
 * `POST /hub/memory`: the cloud brain's memory in the relational store (`DB`), the same
 * store a local hub keeps in `memory.sqlite3`, reached as one call per operation (`op`:
 * add, get, list, search, pinned, forget, approve, pin, counts, scopes, marks.get,
 * marks.set). Every operation takes the scopes it may touch (`"every"` for the owner's
 * own tools) and builds its `WHERE` from them; a memory outside them is as if it did not
 * exist. A memory and its index entries change in one batch; a forget deletes both and
 * merges the indexes. The rules (scopes, kinds, hidden characters, folding, queries) are
 * the shared ones of `@agent/net/memory`.
 *
 * @module
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types/index.ts";
import { HttpError, json } from "@agent/net";
import { type CloudRoutes, db as store } from "./stores.ts";
import {
  hiddenCharacters,
  indexText,
  isScope,
  MAX_TEXT_CHARS,
  MEMORY_KIND_NAMES,
  prunedQuery,
  recencyBoost,
  sameKey,
  sameText,
  SEARCH_CANDIDATES,
  trigramQuery,
  wordTerms,
} from "@agent/net/memory";
import { readObject } from "./body.ts";

type Row = Record<string, unknown>;
type Filter = readonly string[] | "every";

const INDEXES = ["memories_words", "memories_trigrams"] as const;
const STATUSES = ["active", "pending"];
const SOURCES = ["owner", "agent", "imported"];
const REASONS = ["untrusted", "person", "group", "proposed", "instructions"];

function bad(detail: string): never {
  throw new HttpError(400, "bad_request", { detail });
}

/** The scopes of a body: `"every"` or a list of scopes (400 otherwise). */
function filterOf(body: Row): Filter {
  const scopes = body.scopes;
  if (scopes === "every") return "every";
  if (
    !Array.isArray(scopes) || scopes.length > 20 ||
    !scopes.every((s) => typeof s === "string" && isScope(s))
  ) {
    bad("'scopes' must be \"every\" or a list of at most 20 scopes");
  }
  return scopes as string[];
}

/** A `WHERE` piece for `filter` on `column`, with its values. */
function scopeWhere(filter: Filter, column = "scope"): { sql: string; params: string[] } {
  if (filter === "every") return { sql: "1 = 1", params: [] };
  if (filter.length === 0) return { sql: "0 = 1", params: [] };
  return { sql: `${column} IN (${filter.map(() => "?").join(", ")})`, params: [...filter] };
}

function id(value: unknown, what = "id"): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    bad(`'${what}' must be a memory id (a whole number from 1)`);
  }
  return value;
}

function optionalText(value: unknown, what: string, max = 300): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || value.length > max) {
    bad(`'${what}' must be a string of at most ${max} characters`);
  }
  return value;
}

/** `text` checked as a memory's text: not empty, not too long, nothing hidden. */
function memoryText(value: unknown): string {
  if (typeof value !== "string") bad("'text' must be a string");
  const text = value.normalize("NFC").trim();
  if (text === "" || [...text].length > MAX_TEXT_CHARS) {
    bad(`'text' must hold 1 to ${MAX_TEXT_CHARS} characters`);
  }
  if (hiddenCharacters(text).length > 0) bad("'text' holds hidden characters");
  return text;
}

/** One memory row as the hub's `Memory`. */
function memoryOf(row: Row): Row {
  return {
    id: Number(row.id),
    scope: row.scope,
    kind: row.kind,
    text: row.text,
    source: row.source,
    status: row.status,
    pending_reason: row.pending_reason ?? null,
    session_id: row.session_id ?? null,
    channel: row.channel ?? null,
    created_ms: Number(row.created_ms),
    valid_until_ms: row.valid_until_ms === null ? null : Number(row.valid_until_ms),
    superseded_by: row.superseded_by === null ? null : Number(row.superseded_by),
    replaces: row.replaces === null ? null : Number(row.replaces),
    pinned: Number(row.pinned) === 1,
    tokens: Number(row.tokens),
  };
}

class MemoryDb {
  constructor(readonly db: D1Database) {}

  async all(sql: string, params: unknown[]): Promise<Row[]> {
    return (await this.db.prepare(sql).bind(...params).all<Row>()).results ?? [];
  }

  async one(sql: string, params: unknown[]): Promise<Row | undefined> {
    return (await this.db.prepare(sql).bind(...params).first<Row>()) ?? undefined;
  }

  stmt(sql: string, params: unknown[]): D1PreparedStatement {
    return this.db.prepare(sql).bind(...params);
  }

  async byId(memoryId: number): Promise<Row | undefined> {
    return await this.one("SELECT * FROM memories WHERE id = ?", [memoryId]);
  }

  async inFilter(memoryId: number, filter: Filter): Promise<Row> {
    const where = scopeWhere(filter);
    const row = await this.one(`SELECT * FROM memories WHERE id = ? AND ${where.sql}`, [
      memoryId,
      ...where.params,
    ]);
    if (row === undefined) throw new HttpError(404, "unknown_id");
    return row;
  }

  index(memoryId: number | "last", text: string): D1PreparedStatement[] {
    const folded = indexText(text);
    return INDEXES.map((index) =>
      memoryId === "last"
        ? this.stmt(`INSERT INTO ${index} (rowid, text) VALUES (last_insert_rowid(), ?)`, [folded])
        : this.stmt(`INSERT INTO ${index} (rowid, text) VALUES (?, ?)`, [memoryId, folded])
    );
  }
}

async function add(m: MemoryDb, body: Row): Promise<Row> {
  const memory = body.memory as Row | undefined;
  if (memory === null || typeof memory !== "object") bad("'memory' must be an object");
  const scope = memory.scope;
  if (typeof scope !== "string" || !isScope(scope)) bad("'memory.scope' must be a scope");
  const kind = memory.kind ?? "fact";
  if (!MEMORY_KIND_NAMES.includes(kind as never)) bad("'memory.kind' must be a kind");
  const source = memory.source;
  if (!SOURCES.includes(source as string)) bad("'memory.source' must be owner, agent or imported");
  const status = memory.status ?? "active";
  if (!STATUSES.includes(status as string)) bad("'memory.status' must be active or pending");
  const reason = status === "pending" ? memory.pending_reason ?? "proposed" : null;
  if (reason !== null && !REASONS.includes(reason as string)) {
    bad("'memory.pending_reason' is unknown");
  }
  const text = memoryText(memory.text);
  const tokens = memory.tokens;
  if (typeof tokens !== "number" || !Number.isSafeInteger(tokens) || tokens < 0) {
    bad("'memory.tokens' must be a whole number of 0 or more");
  }
  const created = typeof memory.created_ms === "number" ? memory.created_ms : Date.now();
  const key = sameKey(text);
  let replaces: number | null = null;
  if (memory.replaces !== undefined && memory.replaces !== null) {
    const old = await m.byId(id(memory.replaces, "memory.replaces"));
    if (
      old === undefined || old.scope !== scope || old.status !== "active" ||
      old.valid_until_ms !== null
    ) throw new HttpError(409, "replaces_gone");
    replaces = Number(old.id);
  }
  // The same memory again is not a second row; what it replaces is replaced by the one
  // already there (duplicates merged).
  for (
    const row of await m.all(
      "SELECT * FROM memories WHERE scope = ? AND same_key = ? AND status = ? AND valid_until_ms IS NULL",
      [scope, key, status],
    )
  ) {
    if (sameText(String(row.text)) !== sameText(text)) continue;
    const existing = Number(row.id);
    const changes: D1PreparedStatement[] = [];
    if (memory.pinned === true && Number(row.pinned) !== 1) {
      changes.push(m.stmt("UPDATE memories SET pinned = 1 WHERE id = ?", [existing]));
    }
    if (status === "active" && replaces !== null && replaces !== existing) {
      changes.push(m.stmt(
        "UPDATE memories SET valid_until_ms = ?, superseded_by = ?, pinned = 0 WHERE id = ?",
        [created, existing, replaces],
      ));
    }
    if (changes.length > 0) await m.db.batch(changes);
    return memoryOf((await m.byId(existing))!);
  }
  const statements = [
    m.stmt(
      `INSERT INTO memories (scope, kind, text, source, status, pending_reason, session_id,
         channel, created_ms, replaces, pinned, tokens, same_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        scope,
        kind,
        text,
        source,
        status,
        reason,
        optionalText(memory.session_id, "memory.session_id"),
        optionalText(memory.channel, "memory.channel", 40),
        created,
        status === "pending" ? replaces : null,
        memory.pinned === true ? 1 : 0,
        tokens,
        key,
      ],
    ),
    ...m.index("last", text),
  ];
  if (status === "active" && replaces !== null) {
    statements.push(m.stmt(
      "UPDATE memories SET valid_until_ms = ?, superseded_by = last_insert_rowid(), pinned = 0 WHERE id = ?",
      [created, replaces],
    ));
  }
  const results = await m.db.batch(statements);
  const newId = Number(results[0]!.meta.last_row_id);
  return memoryOf((await m.byId(newId))!);
}

async function list(m: MemoryDb, body: Row, filter: Filter): Promise<Row[]> {
  const where = scopeWhere(filter, "m.scope");
  const parts = [where.sql];
  const params: unknown[] = [...where.params];
  if (body.status !== undefined) {
    if (!STATUSES.includes(body.status as string)) bad("'status' must be active or pending");
    parts.push("m.status = ?");
    params.push(body.status);
  }
  if (body.history !== true) parts.push("m.valid_until_ms IS NULL");
  if (body.pinned === true) parts.push("m.pinned = 1");
  const limit = typeof body.limit === "number" ? Math.min(Math.max(1, body.limit), 100_000) : 200;
  const search = typeof body.search === "string" ? body.search.trim() : "";
  if (search === "") {
    return (await m.all(
      `SELECT m.* FROM memories m WHERE ${parts.join(" AND ")}
       ORDER BY m.created_ms DESC, m.id DESC LIMIT ?`,
      [...params, limit],
    )).map(memoryOf);
  }
  const query = trigramQuery(search, "all");
  const rows = query === undefined
    ? (await m.all(
      `SELECT m.* FROM memories m WHERE ${
        parts.join(" AND ")
      } AND instr(lower(m.text), lower(?)) > 0
       ORDER BY m.created_ms DESC, m.id DESC`,
      [...params, search],
    ))
    : await m.all(
      `SELECT m.* FROM memories_trigrams t JOIN memories m ON m.id = t.rowid
       WHERE memories_trigrams MATCH ? AND ${parts.join(" AND ")}
       ORDER BY m.created_ms DESC, m.id DESC`,
      [query, ...params],
    );
  return rows.slice(0, limit).map(memoryOf);
}

async function search(m: MemoryDb, body: Row, filter: Filter): Promise<Row[]> {
  if (typeof body.query !== "string") bad("'query' must be a string");
  const limit = typeof body.limit === "number" ? Math.min(Math.max(1, body.limit), 100) : 20;
  const now = typeof body.now === "number" ? body.now : Date.now();
  const exclude = new Set(Array.isArray(body.exclude) ? body.exclude as number[] : []);
  const where = scopeWhere(filter, "m.scope");
  const inForce = body.history === true
    ? "m.status = 'active'"
    : "m.status = 'active' AND m.valid_until_ms IS NULL";
  const found = new Map<number, { memory: Row; score: number }>();
  const take = async (index: string, match: string | undefined, weight: number) => {
    if (match === undefined || found.size >= limit) return;
    const rows = await m.all(
      `SELECT m.*, bm25(${index}) AS rank FROM ${index} JOIN memories m ON m.id = ${index}.rowid
       WHERE ${index} MATCH ? AND ${where.sql} AND ${inForce} ORDER BY rank LIMIT ?`,
      [match, ...where.params, SEARCH_CANDIDATES],
    );
    for (const row of rows) {
      const memory = memoryOf(row);
      const memoryId = memory.id as number;
      if (exclude.has(memoryId) || found.has(memoryId)) continue;
      const score = -Number(row.rank) * recencyBoost(now - (memory.created_ms as number)) * weight;
      found.set(memoryId, { memory, score });
    }
  };
  const terms = [];
  for (const term of wordTerms(body.query)) {
    const row = await m.one(
      "SELECT TOTAL(doc) AS docs FROM memories_vocab WHERE term >= ? AND term < ?",
      [term.word, term.expr.endsWith("*") ? `${term.word}\u{10FFFF}` : `${term.word}\u0000`],
    );
    terms.push({ ...term, df: Number(row?.docs ?? 0) });
  }
  await take("memories_words", prunedQuery(terms), 1);
  if (found.size < limit) await take("memories_trigrams", trigramQuery(body.query, "any"), 0.25);
  return [...found.values()]
    .sort((a, b) => b.score - a.score || (b.memory.id as number) - (a.memory.id as number))
    .slice(0, limit);
}

async function forget(m: MemoryDb, body: Row, filter: Filter): Promise<number[]> {
  if (!Array.isArray(body.ids) || body.ids.length > 10_000) {
    bad("'ids' must be a list of memory ids");
  }
  const ids = [...new Set((body.ids as unknown[]).map((v) => id(v)))];
  const where = scopeWhere(filter);
  const found: number[] = [];
  for (const memoryId of ids) {
    const row = await m.one(`SELECT id FROM memories WHERE id = ? AND ${where.sql}`, [
      memoryId,
      ...where.params,
    ]);
    if (row !== undefined) found.push(memoryId);
  }
  if (found.length === 0) return [];
  const statements: D1PreparedStatement[] = [];
  for (const memoryId of found) {
    statements.push(m.stmt("DELETE FROM memories WHERE id = ?", [memoryId]));
    for (const index of INDEXES) {
      statements.push(m.stmt(`DELETE FROM ${index} WHERE rowid = ?`, [memoryId]));
    }
    statements.push(
      m.stmt("UPDATE memories SET superseded_by = NULL WHERE superseded_by = ?", [memoryId]),
    );
    statements.push(m.stmt("UPDATE memories SET replaces = NULL WHERE replaces = ?", [memoryId]));
  }
  // The merge drops the terms no memory holds any more.
  for (const index of INDEXES) {
    statements.push(m.stmt(`INSERT INTO ${index}(${index}) VALUES('optimize')`, []));
  }
  await m.db.batch(statements);
  return found;
}

async function approve(m: MemoryDb, body: Row, filter: Filter): Promise<Row> {
  const memoryId = id(body.id);
  const row = await m.inFilter(memoryId, filter);
  if (row.status !== "pending") throw new HttpError(409, "not_pending");
  const now = Date.now();
  const statements: D1PreparedStatement[] = [];
  if (body.text !== undefined) {
    const text = memoryText(body.text);
    const tokens = body.tokens;
    if (typeof tokens !== "number" || !Number.isSafeInteger(tokens) || tokens < 0) {
      bad("'tokens' must be a whole number of 0 or more");
    }
    if (text !== row.text) {
      statements.push(
        m.stmt("UPDATE memories SET text = ?, tokens = ?, same_key = ? WHERE id = ?", [
          text,
          tokens,
          sameKey(text),
          memoryId,
        ]),
      );
      for (const index of INDEXES) {
        statements.push(m.stmt(`DELETE FROM ${index} WHERE rowid = ?`, [memoryId]));
      }
      statements.push(...m.index(memoryId, text));
    }
  }
  statements.push(m.stmt(
    "UPDATE memories SET status = 'active', pending_reason = NULL, replaces = NULL WHERE id = ?",
    [memoryId],
  ));
  const old = row.replaces === null ? undefined : await m.byId(Number(row.replaces));
  if (old !== undefined && old.status === "active" && old.valid_until_ms === null) {
    statements.push(m.stmt(
      "UPDATE memories SET valid_until_ms = ?, superseded_by = ?, pinned = 0 WHERE id = ?",
      [now, memoryId, old.id],
    ));
  }
  await m.db.batch(statements);
  return memoryOf((await m.byId(memoryId))!);
}

/** `POST /hub/memory` (the bearer token already checked). */
export function addMemoryRoutes(routes: CloudRoutes): CloudRoutes {
  return routes.post(
    "/hub/memory",
    (request, { context }) => handleMemory(request, store(context.env)),
  );
}

/** One memory operation (`op`) on the spine's D1. */
async function handleMemory(request: Request, db: D1Database): Promise<Response> {
  const body = await readObject(request);
  const m = new MemoryDb(db);
  const op = body.op;
  switch (op) {
    case "add":
      return json({ memory: await add(m, body) });
    case "get": {
      const where = scopeWhere(filterOf(body));
      const row = await m.one(`SELECT * FROM memories WHERE id = ? AND ${where.sql}`, [
        id(body.id),
        ...where.params,
      ]);
      return json({ memory: row === undefined ? null : memoryOf(row) });
    }
    case "list":
      return json({ memories: await list(m, body, filterOf(body)) });
    case "search":
      return json({ ranked: await search(m, body, filterOf(body)) });
    case "pinned": {
      const where = scopeWhere(filterOf(body));
      const rows = await m.all(
        `SELECT * FROM memories WHERE ${where.sql} AND pinned = 1 AND status = 'active'
           AND valid_until_ms IS NULL ORDER BY created_ms DESC LIMIT 200`,
        where.params,
      );
      return json({ memories: rows.map(memoryOf) });
    }
    case "forget":
      return json({ ids: await forget(m, body, filterOf(body)) });
    case "approve":
      return json({ memory: await approve(m, body, filterOf(body)) });
    case "pin": {
      const memoryId = id(body.id);
      await m.inFilter(memoryId, filterOf(body));
      await m.stmt("UPDATE memories SET pinned = ? WHERE id = ?", [
        body.pinned === true ? 1 : 0,
        memoryId,
      ])
        .run();
      return json({ memory: memoryOf((await m.byId(memoryId))!) });
    }
    case "counts": {
      const where = scopeWhere(filterOf(body));
      const row = await m.one(
        `SELECT TOTAL(status = 'active' AND valid_until_ms IS NULL) AS active,
           TOTAL(status = 'pending') AS pending,
           TOTAL(status = 'active' AND valid_until_ms IS NOT NULL) AS superseded
         FROM memories WHERE ${where.sql}`,
        where.params,
      ) ?? {};
      return json({
        active: Number(row.active ?? 0),
        pending: Number(row.pending ?? 0),
        superseded: Number(row.superseded ?? 0),
      });
    }
    case "scopes":
      return json({
        scopes: (await m.all(
          "SELECT DISTINCT scope FROM memories ORDER BY scope = 'owner' DESC, scope",
          [],
        )).map((r) => r.scope),
      });
    case "marks.get": {
      const session = optionalText(body.session_id, "session_id") ?? bad("'session_id' is missing");
      const row = await m.one("SELECT through_message FROM memory_marks WHERE session_id = ?", [
        session,
      ]);
      return json({ through: Number(row?.through_message ?? 0) });
    }
    case "marks.set": {
      const session = optionalText(body.session_id, "session_id") ?? bad("'session_id' is missing");
      const count = body.count;
      if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) {
        bad("'count' must be a whole number of 0 or more");
      }
      await m.stmt(
        `INSERT INTO memory_marks (session_id, through_message, at_ms) VALUES (?, ?, ?)
         ON CONFLICT (session_id) DO UPDATE SET through_message = excluded.through_message,
           at_ms = excluded.at_ms`,
        [session, count, Date.now()],
      ).run();
      return json({ through: count });
    }
    default:
      bad(
        "'op' must be one of add, get, list, search, pinned, forget, approve, pin, counts, scopes, marks.get, marks.set",
      );
  }
}
