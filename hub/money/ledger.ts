/**
 * The spend ledger: `<AGENT_DATA_DIR>/spend.sqlite3`, one row per model call (time,
 * role, provider, model id, token counts, dollars, channel, session, peer; never any
 * text), shared by every process that uses the data directory.
 *
 * Several processes (hub, chat, TUI) write it at once: SQLite in WAL mode with a busy
 * timeout, and every write in a `BEGIN IMMEDIATE` transaction so a writer waits for the
 * lock instead of failing half-way. Each insert also adds the call to a per-role,
 * per-Istanbul-day total in the same transaction, so the sum for a month is at most 31
 * rows of `spend_day` however many calls the ledger holds.
 *
 * Schema (version 3, kept in `PRAGMA user_version`):
 * - `calls(id, ts, role, provider, model_id, input_tokens, output_tokens,
 *   cache_read_tokens, cache_write_tokens, usd, channel, session_id, peer)`:
 *   `ts` is epoch ms; `input_tokens` excludes cache reads and writes; `usd` is NULL
 *   for a call on an unpriced model; `peer` is the contact of a network turn
 *   (`<address>`, or `<address>/<sub>` when one of our sub-agents answered).
 * - `spend_day(role, day, usd, calls, unpriced_calls, input_tokens, output_tokens,
 *   cache_read_tokens, cache_write_tokens)`: `day` is the epoch ms of the Istanbul
 *   midnight that starts the day. Version 2 added the token columns (filled from
 *   `calls` when a version-1 ledger is opened).
 * - `budget_warnings(role, since, at)`: the early warnings given, one per role and
 *   budget period (`since` is the period's start), so every process tells it once.
 * - Version 3 added `calls.purpose`: `turn` for an answer, `compaction` for the
 *   summary that folds a long session's oldest turns.
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { dayStart, nextDayStart } from "./periods.ts";
import {
  type BreakdownKey,
  type BreakdownOptions,
  type BreakdownRow,
  type CallPurpose,
  type CallRecord,
  type Channel,
  checkRecord,
  type DayRow,
  LedgerError,
  type SpentTotals,
  type TokenTotals,
} from "./ledger_types.ts";

export * from "./ledger_types.ts";

/** The schema version this code writes. */
export const SCHEMA_VERSION = 3;

const BUSY_TIMEOUT_MS = 10_000;

const SCHEMA_V1 = `
CREATE TABLE IF NOT EXISTS calls (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  role TEXT NOT NULL,
  provider TEXT NOT NULL,
  model_id TEXT NOT NULL,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  cache_read_tokens INTEGER NOT NULL,
  cache_write_tokens INTEGER NOT NULL,
  usd REAL,
  channel TEXT NOT NULL,
  session_id TEXT,
  peer TEXT
);
CREATE INDEX IF NOT EXISTS calls_role_ts ON calls (role, ts);
CREATE INDEX IF NOT EXISTS calls_ts ON calls (ts);
CREATE TABLE IF NOT EXISTS spend_day (
  role TEXT NOT NULL,
  day INTEGER NOT NULL,
  usd REAL NOT NULL,
  calls INTEGER NOT NULL,
  unpriced_calls INTEGER NOT NULL,
  PRIMARY KEY (role, day)
) WITHOUT ROWID;
`;

const TOKEN_COLUMNS = [
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
] as const;

// Version 2: token totals per day (so a daily series never reads the calls), and the
// early warnings already given.
const SCHEMA_V2 = `
${
  TOKEN_COLUMNS.map((c) => `ALTER TABLE spend_day ADD COLUMN ${c} INTEGER NOT NULL DEFAULT 0;`)
    .join("\n")
}
UPDATE spend_day SET (${TOKEN_COLUMNS.join(", ")}) = (
  SELECT ${TOKEN_COLUMNS.map((c) => `TOTAL(${c})`).join(", ")} FROM calls
  WHERE calls.role = spend_day.role AND calls.ts >= spend_day.day
    AND calls.ts < spend_day.day + 86400000
);
CREATE TABLE IF NOT EXISTS budget_warnings (
  role TEXT NOT NULL,
  since INTEGER NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (role, since)
) WITHOUT ROWID;
`;

// Version 3: what each call was for (answers and context summaries apart).
const SCHEMA_V3 = `
ALTER TABLE calls ADD COLUMN purpose TEXT NOT NULL DEFAULT 'turn';
`;

type Row = Record<string, unknown>;

function num(row: Row | undefined, key: string): number {
  const value = row?.[key];
  return typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : 0;
}

function exists(file: string): boolean {
  try {
    Deno.statSync(file);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw new LedgerError("read", file, error);
  }
}

/**
 * The spend ledger of one data directory.
 *
 * @example
 * ```ts
 * import { Ledger } from "./ledger.ts";
 * const dir = Deno.makeTempDirSync();
 * const ledger = Ledger.open(`${dir}/spend.sqlite3`);
 * ledger.record({
 *   ts: Date.UTC(2026, 0, 5, 9), role: "brain", provider: "vendor-a", model_id: "m",
 *   input_tokens: 10, output_tokens: 5, cache_read_tokens: 0, cache_write_tokens: 0,
 *   usd: 0.25, channel: "chat", session_id: "s1", peer: null,
 * });
 * const spent = ledger.spent("brain", Date.UTC(2026, 0, 1));
 * ledger.close();
 * Deno.removeSync(dir, { recursive: true });
 * if (spent.usd !== 0.25) throw new Error();
 * ```
 */
export class Ledger {
  #db: DatabaseSync;
  #file: string;
  #insert: StatementSync;
  #addDay: StatementSync;
  #sumDays: StatementSync;
  #sumCalls: StatementSync;
  #closed = false;

  private constructor(db: DatabaseSync, file: string) {
    this.#db = db;
    this.#file = file;
    this.#insert = db.prepare(
      `INSERT INTO calls (ts, role, provider, model_id, input_tokens, output_tokens,
        cache_read_tokens, cache_write_tokens, usd, channel, session_id, peer, purpose)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#addDay = db.prepare(
      `INSERT INTO spend_day (role, day, usd, calls, unpriced_calls, ${TOKEN_COLUMNS.join(", ")})
       VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)
       ON CONFLICT (role, day) DO UPDATE SET usd = usd + excluded.usd,
         calls = calls + 1, unpriced_calls = unpriced_calls + excluded.unpriced_calls,
         ${TOKEN_COLUMNS.map((c) => `${c} = ${c} + excluded.${c}`).join(", ")}`,
    );
    this.#sumDays = db.prepare(
      `SELECT TOTAL(usd) AS usd, TOTAL(calls) AS calls, TOTAL(unpriced_calls) AS unpriced
       FROM spend_day WHERE role = ? AND day >= ?`,
    );
    this.#sumCalls = db.prepare(
      `SELECT TOTAL(usd) AS usd, COUNT(*) AS calls, TOTAL(usd IS NULL) AS unpriced
       FROM calls WHERE role = ? AND ts >= ? AND ts < ?`,
    );
  }

  /**
   * Opens the ledger at `file`, creating it (mode 0600) and its directory when
   * missing, and the tables when new. Throws {@linkcode LedgerError}.
   */
  static open(file: string): Ledger {
    try {
      if (!exists(file)) {
        const dir = file.slice(0, file.lastIndexOf("/"));
        if (dir !== "") Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
        // SQLite gives the -wal and -shm files the main file's mode, so 0600 here covers them.
        Deno.openSync(file, { create: true, write: true, mode: 0o600 }).close();
        Deno.chmodSync(file, 0o600);
      }
    } catch (error) {
      if (error instanceof LedgerError) throw error;
      throw new LedgerError("create", file, error);
    }
    return Ledger.#connect(file);
  }

  /**
   * Opens the ledger at `file` only when it exists (a reader that must not create it);
   * `undefined` when there is no file. Throws {@linkcode LedgerError}.
   */
  static openExisting(file: string): Ledger | undefined {
    return exists(file) ? Ledger.#connect(file) : undefined;
  }

  static #connect(file: string): Ledger {
    let db: DatabaseSync | undefined;
    try {
      db = new DatabaseSync(file);
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.exec("PRAGMA journal_mode = WAL");
      // WAL with NORMAL sync cannot corrupt; a power cut may lose the last few rows.
      db.exec("PRAGMA synchronous = NORMAL");
      Ledger.#migrate(db, file);
      return new Ledger(db, file);
    } catch (error) {
      try {
        db?.close();
      } catch { /* already failing */ }
      if (error instanceof LedgerError) throw error;
      throw new LedgerError("open", file, error);
    }
  }

  static #version(db: DatabaseSync): number {
    return num(db.prepare("PRAGMA user_version").get() as Row | undefined, "user_version");
  }

  static #migrate(db: DatabaseSync, file: string): void {
    const tooNew = (v: number) =>
      new LedgerError(
        "open",
        file,
        `it has schema version ${v}, and this agent knows up to ${SCHEMA_VERSION}`,
      );
    const seen = Ledger.#version(db);
    if (seen === SCHEMA_VERSION) return;
    if (seen > SCHEMA_VERSION) throw tooNew(seen);
    db.exec("BEGIN IMMEDIATE");
    try {
      // Another process may have created the tables while this one waited for the lock.
      const current = Ledger.#version(db);
      if (current > SCHEMA_VERSION) throw tooNew(current);
      if (current < 1) db.exec(SCHEMA_V1);
      if (current < 2) db.exec(SCHEMA_V2);
      if (current < 3) db.exec(SCHEMA_V3);
      db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }

  /** The ledger's file. */
  get file(): string {
    return this.#file;
  }

  /** Writes one call and adds it to its day's total, atomically. */
  record(row: CallRecord): void {
    this.recordMany([row]);
  }

  /** Writes several calls in one transaction (imports, tests, benchmarks). */
  recordMany(rows: readonly CallRecord[]): void {
    this.#open();
    for (const row of rows) checkRecord(row);
    this.#write(() => {
      for (const r of rows) {
        this.#insert.run(
          r.ts,
          r.role,
          r.provider,
          r.model_id,
          r.input_tokens,
          r.output_tokens,
          r.cache_read_tokens,
          r.cache_write_tokens,
          r.usd,
          r.channel,
          r.session_id,
          r.peer,
          r.purpose ?? "turn",
        );
        this.#addDay.run(
          r.role,
          dayStart(r.ts),
          r.usd ?? 0,
          r.usd === null ? 1 : 0,
          r.input_tokens,
          r.output_tokens,
          r.cache_read_tokens,
          r.cache_write_tokens,
        );
      }
    });
  }

  /**
   * What `role` spent from `sinceMs` on. From an Istanbul midnight (every budget
   * period starts at one) this reads only the daily totals.
   */
  spent(role: string, sinceMs: number): SpentTotals {
    this.#open();
    try {
      const first = dayStart(sinceMs);
      if (first === sinceMs) return this.#totals(this.#sumDays.get(role, first) as Row);
      // A span starting mid-day: the rest of that day from the rows, then whole days.
      const next = nextDayStart(sinceMs);
      const part = this.#totals(this.#sumCalls.get(role, sinceMs, next) as Row);
      const rest = this.#totals(this.#sumDays.get(role, next) as Row);
      return {
        usd: part.usd + rest.usd,
        calls: part.calls + rest.calls,
        unpriced_calls: part.unpriced_calls + rest.unpriced_calls,
      };
    } catch (error) {
      throw new LedgerError("read", this.#file, error);
    }
  }

  /**
   * Spend grouped by channel, by session (within its channel) or by peer (the
   * contacts of network turns; calls without a peer are left out), largest first,
   * with calls and tokens.
   */
  breakdown(by: BreakdownKey, options: BreakdownOptions): BreakdownRow[] {
    this.#open();
    const groups = by === "channel"
      ? "channel"
      : by === "session"
      ? "channel, session_id"
      : by === "purpose"
      ? "purpose"
      : "channel, peer";
    const where = ["ts >= ?", "ts < ?"];
    const params: (string | number)[] = [
      options.sinceMs,
      options.untilMs ?? Number.MAX_SAFE_INTEGER,
    ];
    if (options.role !== undefined) {
      where.push("role = ?");
      params.push(options.role);
    }
    if (by === "peer") where.push("peer IS NOT NULL");
    try {
      const rows = this.#db.prepare(
        `SELECT ${groups}, TOTAL(usd) AS usd, COUNT(*) AS calls, TOTAL(usd IS NULL) AS unpriced,
           ${TOKEN_COLUMNS.map((c) => `TOTAL(${c}) AS ${c}`).join(", ")}
         FROM calls WHERE ${where.join(" AND ")} GROUP BY ${groups} ORDER BY usd DESC, calls DESC`,
      ).all(...params) as Row[];
      return rows.map((row) => ({
        channel: (row.channel ?? null) as Channel,
        session_id: by === "session" ? (row.session_id as string | null) : null,
        peer: by === "peer" ? (row.peer as string | null) : null,
        purpose: by === "purpose" ? (row.purpose as CallPurpose) : null,
        ...this.#totals(row),
        ...this.#tokens(row),
      }));
    } catch (error) {
      throw new LedgerError("read", this.#file, error);
    }
  }

  /**
   * Spend per Istanbul day from `sinceMs` (an Istanbul midnight) to `untilMs`, from the
   * daily totals alone: one entry per day that has calls, oldest first.
   */
  days(options: BreakdownOptions): DayRow[] {
    this.#open();
    const where = ["day >= ?", "day < ?"];
    const params: (string | number)[] = [
      dayStart(options.sinceMs),
      options.untilMs ?? Number.MAX_SAFE_INTEGER,
    ];
    if (options.role !== undefined) {
      where.push("role = ?");
      params.push(options.role);
    }
    try {
      const rows = this.#db.prepare(
        `SELECT day, TOTAL(usd) AS usd, TOTAL(calls) AS calls, TOTAL(unpriced_calls) AS unpriced,
           ${TOKEN_COLUMNS.map((c) => `TOTAL(${c}) AS ${c}`).join(", ")}
         FROM spend_day WHERE ${where.join(" AND ")} GROUP BY day ORDER BY day`,
      ).all(...params) as Row[];
      return rows.map((row) => ({
        day: num(row, "day"),
        ...this.#totals(row),
        ...this.#tokens(row),
      }));
    } catch (error) {
      throw new LedgerError("read", this.#file, error);
    }
  }

  /**
   * Records that `role`'s early warning for the period starting at `sinceMs` was given;
   * true only for the first caller (of any process), which then tells the owner.
   */
  claimWarning(role: string, sinceMs: number, atMs: number): boolean {
    this.#open();
    let claimed = false;
    this.#write(() => {
      const result = this.#db.prepare(
        "INSERT OR IGNORE INTO budget_warnings (role, since, at) VALUES (?, ?, ?)",
      ).run(role, sinceMs, atMs);
      claimed = Number(result.changes) === 1;
    });
    return claimed;
  }

  /** How many calls the ledger holds. */
  count(): number {
    this.#open();
    return num(this.#db.prepare("SELECT COUNT(*) AS n FROM calls").get() as Row, "n");
  }

  /** Closes the database; the ledger cannot be used afterwards. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  /** Closes the ledger at the end of a `using` block. */
  [Symbol.dispose](): void {
    this.close();
  }

  #tokens(row: Row): TokenTotals {
    return {
      input_tokens: num(row, "input_tokens"),
      output_tokens: num(row, "output_tokens"),
      cache_read_tokens: num(row, "cache_read_tokens"),
      cache_write_tokens: num(row, "cache_write_tokens"),
    };
  }

  #totals(row: Row | undefined): SpentTotals {
    return { usd: num(row, "usd"), calls: num(row, "calls"), unpriced_calls: num(row, "unpriced") };
  }

  #open(): void {
    if (this.#closed) {
      throw new LedgerError("use", this.#file, "it is closed");
    }
  }

  #write(body: () => void): void {
    try {
      this.#db.exec("BEGIN IMMEDIATE");
    } catch (error) {
      throw new LedgerError("write", this.#file, error);
    }
    try {
      body();
      this.#db.exec("COMMIT");
    } catch (error) {
      try {
        this.#db.exec("ROLLBACK");
      } catch { /* the transaction is already gone */ }
      throw new LedgerError("write", this.#file, error);
    }
  }
}
