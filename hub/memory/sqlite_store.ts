/**
 * The local memory store: `<data>/memory.sqlite3` through `node:sqlite`, private from its
 * first byte (0600, and so its WAL files), WAL with a busy timeout so the hub and an
 * `agent memory` command share it, `secure_delete` on so a deleted row's bytes are
 * overwritten. A memory and its index entries change in one transaction; a forget
 * deletes both, merges the indexes and checkpoints the WAL into the database with a
 * truncate, after which the text is in no file of the store.
 *
 * Every read builds its `WHERE` from the caller's scopes (`scopeWhere`): no method reads
 * a memory outside them.
 *
 * @module
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type { Lang } from "../i18n.ts";
import { privateDatabaseFile } from "../sqlite_file.ts";
import { errorMessage } from "@agent/net/common";
import { memoryError } from "./errors.ts";
import { INDEXES, migrateMemory } from "./schema.ts";
import {
  indexText,
  prunedQuery,
  recencyBoost,
  SEARCH_CANDIDATES,
  trigramQuery,
  wordTerms,
} from "@agent/net/memory";
import { checkNew, checkText, sameKey, sameText, textTokens } from "./validate.ts";
import type {
  ApproveOptions,
  ListOptions,
  Memory,
  MemoryCounts,
  MemoryStore,
  NewMemory,
  Ranked,
  Scope,
  ScopeFilter,
  SearchOptions,
} from "./types.ts";

const BUSY_TIMEOUT_MS = 10_000;
/** How long a forget tries to truncate the WAL while another connection reads. */
const CHECKPOINT_TRIES = 40;
const CHECKPOINT_WAIT_MS = 50;

/** Options for {@linkcode SqliteMemoryStore}. */
export interface SqliteMemoryStoreOptions {
  /** The language of its errors. @default "en" */
  lang?: Lang | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
  /** Told when a forget could not empty the WAL at once (another process kept reading). */
  warn?: ((line: string) => void) | undefined;
}

type Row = Record<string, SQLInputValue>;

/** A `WHERE` piece for `filter`, with its parameters. */
export function scopeWhere(
  filter: ScopeFilter,
  column = "scope",
): { sql: string; params: string[] } {
  if (filter === "every") return { sql: "1 = 1", params: [] };
  if (filter.length === 0) return { sql: "0 = 1", params: [] };
  return { sql: `${column} IN (${filter.map(() => "?").join(", ")})`, params: [...filter] };
}

/** The store in one SQLite file. */
export class SqliteMemoryStore implements MemoryStore {
  readonly file: string;
  #db: DatabaseSync;
  #lang: Lang;
  #now: () => number;
  #warn: (line: string) => void;
  #statements = new Map<string, StatementSync>();

  /** Opens (creating when missing) the store at `file`. Throws a `MemoryError`. */
  constructor(file: string, options: SqliteMemoryStoreOptions = {}) {
    this.file = file;
    this.#lang = options.lang ?? "en";
    this.#now = options.now ?? Date.now;
    this.#warn = options.warn ?? (() => {});
    let db: DatabaseSync | undefined;
    try {
      privateDatabaseFile(file);
      db = new DatabaseSync(file);
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
      db.exec("PRAGMA secure_delete = ON");
      migrateMemory(db);
    } catch (error) {
      try {
        db?.close();
      } catch { /* already failing */ }
      throw memoryError(this.#lang, "store_failed", { file, detail: errorMessage(error) }, {
        cause: error,
      });
    }
    this.#db = db;
  }

  add(memory: NewMemory): Promise<Memory> {
    return settle(() => this.#add(memory));
  }

  #add(memory: NewMemory): Memory {
    const m = checkNew(memory, this.#lang);
    const now = m.created_ms ?? this.#now();
    const status = m.status ?? "active";
    return this.#write(() => {
      let replaces: number | null = null;
      if (m.replaces !== undefined && m.replaces !== null) {
        const old = this.#byId(m.replaces);
        if (
          old === undefined || old.scope !== m.scope || old.status !== "active" ||
          old.valid_until_ms !== null
        ) throw memoryError(this.#lang, "replaces_gone", { id: m.replaces });
        replaces = old.id;
      }
      const same = sameText(m.text);
      for (
        const row of this.#all(
          `SELECT * FROM memories WHERE scope = ? AND same_key = ? AND status = ?
             AND valid_until_ms IS NULL`,
          [m.scope, sameKey(m.text), status],
        )
      ) {
        // The same memory again (a proposal repeated, an import run twice) is not a second
        // row; what it replaces is replaced by the one already there (duplicates merged).
        if (sameText(String(row.text)) !== same) continue;
        const existing = Number(row.id);
        if (m.pinned === true && row.pinned !== 1) {
          this.#run("UPDATE memories SET pinned = 1 WHERE id = ?", [existing]);
        }
        if (status === "active" && replaces !== null && replaces !== existing) {
          this.#supersede(replaces, existing, now);
        }
        return this.#byId(existing)!;
      }
      const inserted = this.#run(
        `INSERT INTO memories (scope, kind, text, source, status, pending_reason, session_id,
           channel, created_ms, replaces, pinned, tokens, same_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          m.scope,
          m.kind ?? "fact",
          m.text,
          m.source,
          status,
          status === "pending" ? m.pending_reason ?? "proposed" : null,
          m.session_id ?? null,
          m.channel ?? null,
          now,
          status === "pending" ? replaces : null,
          m.pinned === true ? 1 : 0,
          textTokens(m.text),
          sameKey(m.text),
        ],
      );
      const id = Number(inserted.lastInsertRowid);
      this.#index(id, m.text);
      if (status === "active" && replaces !== null) this.#supersede(replaces, id, now);
      return this.#byId(id)!;
    });
  }

  get(id: number, filter: ScopeFilter): Promise<Memory | undefined> {
    return settle(() => this.#get(id, filter));
  }

  #get(id: number, filter: ScopeFilter): Memory | undefined {
    const where = scopeWhere(filter);
    const row = this.#one(`SELECT * FROM memories WHERE id = ? AND ${where.sql}`, [
      id,
      ...where.params,
    ]);
    return row === undefined ? undefined : toMemory(row);
  }

  list(filter: ScopeFilter, options: ListOptions = {}): Promise<Memory[]> {
    return settle(() => this.#list(filter, options));
  }

  #list(filter: ScopeFilter, options: ListOptions): Memory[] {
    const where = scopeWhere(filter, "m.scope");
    const parts = [where.sql];
    const params: SQLInputValue[] = [...where.params];
    if (options.status !== undefined) {
      parts.push("m.status = ?");
      params.push(options.status);
    }
    if (options.history !== true) parts.push("m.valid_until_ms IS NULL");
    if (options.pinned === true) parts.push("m.pinned = 1");
    const limit = options.limit ?? 200;
    const search = options.search?.trim() ?? "";
    if (search === "") {
      return this.#all(
        `SELECT m.* FROM memories m WHERE ${parts.join(" AND ")}
         ORDER BY m.created_ms DESC, m.id DESC LIMIT ?`,
        [...params, limit],
      ).map(toMemory);
    }
    // Every piece of the search in the text: the trigram index for pieces of three
    // letters or more, a plain scan of the scope's rows for shorter ones.
    const query = trigramQuery(search, "all");
    const rows = query === undefined
      ? this.#all(
        `SELECT m.* FROM memories m WHERE ${parts.join(" AND ")}
         ORDER BY m.created_ms DESC, m.id DESC`,
        params,
      ).filter((row) => folded(String(row.text)).includes(folded(search)))
      : this.#all(
        `SELECT m.* FROM memories_trigrams t JOIN memories m ON m.id = t.rowid
         WHERE memories_trigrams MATCH ? AND ${parts.join(" AND ")}
         ORDER BY m.created_ms DESC, m.id DESC`,
        [query, ...params],
      );
    return rows.slice(0, limit).map(toMemory);
  }

  search(query: string, filter: ScopeFilter, options: SearchOptions = {}): Promise<Ranked[]> {
    return settle(() => this.#search(query, filter, options));
  }

  #search(query: string, filter: ScopeFilter, options: SearchOptions): Ranked[] {
    const limit = options.limit ?? 20;
    const now = options.now ?? this.#now();
    const where = scopeWhere(filter, "m.scope");
    const inForce = options.history === true
      ? "m.status = 'active'"
      : "m.status = 'active' AND m.valid_until_ms IS NULL";
    const exclude = new Set(options.exclude ?? []);
    const found = new Map<number, Ranked>();
    const take = (index: string, match: string | undefined, weight: number) => {
      if (match === undefined || found.size >= limit) return;
      const rows = this.#all(
        `SELECT m.*, bm25(${index}) AS rank FROM ${index} JOIN memories m ON m.id = ${index}.rowid
         WHERE ${index} MATCH ? AND ${where.sql} AND ${inForce}
         ORDER BY rank LIMIT ?`,
        [match, ...where.params, SEARCH_CANDIDATES],
      );
      for (const row of rows) {
        const memory = toMemory(row);
        if (exclude.has(memory.id) || found.has(memory.id)) continue;
        const recency = recencyBoost(now - memory.created_ms);
        found.set(memory.id, { memory, score: -Number(row.rank) * recency * weight });
      }
    };
    take("memories_words", this.#wordQuery(query), 1);
    // Pieces of words (a name misspelt, a Turkish ending the prefix missed) when the
    // word index found too little; ranked below every word match.
    if (found.size < limit) take("memories_trigrams", trigramQuery(query, "any"), 0.25);
    const ranked = [...found.values()].sort((a, b) =>
      b.score - a.score || b.memory.id - a.memory.id
    );
    return ranked.slice(0, limit);
  }

  pinned(filter: ScopeFilter): Promise<Memory[]> {
    // Literal conditions, so the partial index of pinned memories in force is used.
    const where = scopeWhere(filter);
    return settle(() =>
      this.#all(
        `SELECT * FROM memories INDEXED BY memories_pinned WHERE ${where.sql} AND pinned = 1 AND status = 'active'
           AND valid_until_ms IS NULL ORDER BY created_ms DESC LIMIT 200`,
        where.params,
      ).map(toMemory)
    );
  }

  async forget(ids: readonly number[], filter: ScopeFilter): Promise<number[]> {
    const gone = this.#forget(ids, filter);
    if (gone.length > 0) await this.#truncateWal();
    return gone;
  }

  #forget(ids: readonly number[], filter: ScopeFilter): number[] {
    const where = scopeWhere(filter);
    return this.#write(() => {
      const found: number[] = [];
      for (const id of new Set(ids)) {
        const row = this.#one(`SELECT id FROM memories WHERE id = ? AND ${where.sql}`, [
          id,
          ...where.params,
        ]);
        if (row === undefined) continue;
        this.#run("DELETE FROM memories WHERE id = ?", [id]);
        for (const index of INDEXES) this.#run(`DELETE FROM ${index} WHERE rowid = ?`, [id]);
        this.#run("UPDATE memories SET superseded_by = NULL WHERE superseded_by = ?", [id]);
        this.#run("UPDATE memories SET replaces = NULL WHERE replaces = ?", [id]);
        found.push(id);
      }
      // A merge drops the terms no memory uses any more; secure_delete zeroes the pages
      // they were on.
      if (found.length > 0) {
        for (const index of INDEXES) {
          this.#db.exec(`INSERT INTO ${index}(${index}) VALUES('optimize')`);
        }
      }
      return found;
    });
  }

  approve(id: number, filter: ScopeFilter, options: ApproveOptions = {}): Promise<Memory> {
    return settle(() => this.#approve(id, filter, options));
  }

  #approve(id: number, filter: ScopeFilter, options: ApproveOptions): Memory {
    const text = options.text === undefined ? undefined : checkText(options.text, this.#lang);
    return this.#write(() => {
      const memory = this.#inFilter(id, filter);
      if (memory.status !== "pending") throw memoryError(this.#lang, "not_pending", { id });
      if (text !== undefined && text !== memory.text) {
        this.#run("UPDATE memories SET text = ?, tokens = ?, same_key = ? WHERE id = ?", [
          text,
          textTokens(text),
          sameKey(text),
          id,
        ]);
        for (const index of INDEXES) this.#run(`DELETE FROM ${index} WHERE rowid = ?`, [id]);
        this.#index(id, text);
      }
      const now = this.#now();
      this.#run(
        "UPDATE memories SET status = 'active', pending_reason = NULL, replaces = NULL WHERE id = ?",
        [id],
      );
      const old = memory.replaces === null ? undefined : this.#byId(memory.replaces);
      // What it replaces may have been forgotten or replaced meanwhile: then it simply joins.
      if (old !== undefined && old.status === "active" && old.valid_until_ms === null) {
        this.#supersede(old.id, id, now);
      }
      return this.#byId(id)!;
    });
  }

  pin(id: number, filter: ScopeFilter, pinned: boolean): Promise<Memory> {
    return settle(() =>
      this.#write(() => {
        this.#inFilter(id, filter);
        this.#run("UPDATE memories SET pinned = ? WHERE id = ?", [pinned ? 1 : 0, id]);
        return this.#byId(id)!;
      })
    );
  }

  counts(filter: ScopeFilter): Promise<MemoryCounts> {
    return settle(() => this.#counts(filter));
  }

  #counts(filter: ScopeFilter): MemoryCounts {
    const where = scopeWhere(filter);
    const row = this.#one(
      `SELECT
         TOTAL(status = 'active' AND valid_until_ms IS NULL) AS active,
         TOTAL(status = 'pending') AS pending,
         TOTAL(status = 'active' AND valid_until_ms IS NOT NULL) AS superseded
       FROM memories WHERE ${where.sql}`,
      where.params,
    ) ?? {};
    return {
      active: Number(row.active ?? 0),
      pending: Number(row.pending ?? 0),
      superseded: Number(row.superseded ?? 0),
    };
  }

  scopes(): Promise<Scope[]> {
    return settle(() =>
      this.#all("SELECT DISTINCT scope FROM memories ORDER BY scope = 'owner' DESC, scope", [])
        .map((row) => String(row.scope) as Scope)
    );
  }

  /** How many messages of session `sessionId` the memory role has read (0: none). */
  extractedThrough(sessionId: string): Promise<number> {
    return settle(() =>
      Number(
        this.#one("SELECT through_message FROM extraction_marks WHERE session_id = ?", [
          sessionId,
        ])?.through_message ?? 0,
      )
    );
  }

  /** Notes that the memory role has read the first `count` messages of `sessionId`. */
  markExtracted(sessionId: string, count: number): Promise<void> {
    return settle(() => {
      this.#run(
        `INSERT INTO extraction_marks (session_id, through_message, at_ms) VALUES (?, ?, ?)
       ON CONFLICT (session_id) DO UPDATE SET through_message = excluded.through_message,
         at_ms = excluded.at_ms`,
        [sessionId, count, this.#now()],
      );
    });
  }

  close(): void {
    this.#statements.clear();
    this.#db.close();
  }

  /** The memory `id` when `filter` may see it; `unknown_id` otherwise. */
  #inFilter(id: number, filter: ScopeFilter): Memory {
    const where = scopeWhere(filter);
    const row = this.#one(`SELECT * FROM memories WHERE id = ? AND ${where.sql}`, [
      id,
      ...where.params,
    ]);
    if (row === undefined) throw memoryError(this.#lang, "unknown_id", { id });
    return toMemory(row);
  }

  /** The word index's query for `text`, its common words paired (see `prunedQuery`). */
  #wordQuery(text: string): string | undefined {
    const terms = wordTerms(text).map((term) => ({
      ...term,
      // How many memories hold the word (or, for a prefix, the words it starts).
      df: Number(
        this.#one(
          "SELECT TOTAL(doc) AS docs FROM memories_vocab WHERE term >= ? AND term < ?",
          [term.word, term.expr.endsWith("*") ? `${term.word}\u{10FFFF}` : `${term.word}\u0000`],
        )?.docs ?? 0,
      ),
    }));
    return prunedQuery(terms);
  }

  #byId(id: number): Memory | undefined {
    const row = this.#one("SELECT * FROM memories WHERE id = ?", [id]);
    return row === undefined ? undefined : toMemory(row);
  }

  #index(id: number, text: string): void {
    const indexed = indexText(text);
    for (const index of INDEXES) {
      this.#run(`INSERT INTO ${index} (rowid, text) VALUES (?, ?)`, [id, indexed]);
    }
  }

  #supersede(oldId: number, newId: number, now: number): void {
    this.#run(
      "UPDATE memories SET valid_until_ms = ?, superseded_by = ?, pinned = 0 WHERE id = ?",
      [now, newId, oldId],
    );
  }

  /** Runs `body` in one `BEGIN IMMEDIATE` transaction; a throw rolls everything back. */
  #write<T>(body: () => T): T {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const out = body();
      this.#db.exec("COMMIT");
      return out;
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  /**
   * Copies the WAL into the database and truncates it to nothing, so a forgotten text is
   * left in no frame of it. A reader in another process holds the truncate off; it is
   * tried again for about two seconds, then left to the next forget or the next start.
   */
  async #truncateWal(): Promise<void> {
    for (let i = 0; i < CHECKPOINT_TRIES; i++) {
      const row = this.#db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get() as Row | undefined;
      if (Number(row?.busy ?? 0) === 0) return;
      await new Promise((r) => setTimeout(r, CHECKPOINT_WAIT_MS));
    }
    this.#warn(`memory: ${this.file}-wal could not be truncated after a forget (a reader held it)`);
  }

  #prepare(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #run(sql: string, params: SQLInputValue[]) {
    return this.#prepare(sql).run(...params);
  }

  #one(sql: string, params: SQLInputValue[]): Row | undefined {
    return this.#prepare(sql).get(...params) as Row | undefined;
  }

  #all(sql: string, params: SQLInputValue[]): Row[] {
    return this.#prepare(sql).all(...params) as Row[];
  }
}

/** `body`'s value as a promise, or its throw as a rejection. */
function settle<T>(body: () => T): Promise<T> {
  try {
    return Promise.resolve(body());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A row as a {@linkcode Memory}. */
function toMemory(row: Row): Memory {
  const num = (v: SQLInputValue | undefined) => (v === null || v === undefined ? null : Number(v));
  const str = (v: SQLInputValue | undefined) => (v === null || v === undefined ? null : String(v));
  return {
    id: Number(row.id),
    scope: String(row.scope) as Scope,
    kind: String(row.kind) as Memory["kind"],
    text: String(row.text),
    source: String(row.source) as Memory["source"],
    status: String(row.status) as Memory["status"],
    pending_reason: str(row.pending_reason) as Memory["pending_reason"],
    session_id: str(row.session_id),
    channel: str(row.channel),
    created_ms: Number(row.created_ms),
    valid_until_ms: num(row.valid_until_ms),
    superseded_by: num(row.superseded_by),
    replaces: num(row.replaces),
    pinned: Number(row.pinned) === 1,
    tokens: Number(row.tokens),
  };
}

/** Text as a short search compares it: lower case, accents folded. */
function folded(text: string): string {
  return indexText(text).replace(/İ/g, "i").toLowerCase().normalize("NFKD").replace(
    /\p{M}/gu,
    "",
  );
}
