/**
 * The spend ledger's SQLite schema and its migrations, kept apart from the ledger's
 * reads and writes so each step of the schema's history is in one place.
 *
 * Versions (kept in `PRAGMA user_version`):
 * 1. `calls` (one row per call) and `spend_day` (per role, per Istanbul day).
 * 2. token totals in `spend_day`; `budget_warnings` (the early warnings given).
 * 3. every call that was sent is a row: `calls.estimated` (1 when the tokens were
 *    estimated because the provider's usage never came), `calls.call_id` (unique, so a
 *    settled call is written once, here and in the cloud ledger), `spend_day.estimated_calls`,
 *    and `pending`: a row written before a call is sent (with the hard-cap reservation),
 *    replaced by the call's row when it ends, or settled as estimated by the next
 *    process that opens the ledger when the process that made it died; and
 *    `calls.purpose` (`turn` for an answer, `compaction` for the summary that folds a
 *    long session's oldest turns).
 * 4. `holds`: a job run's hold on its job's day (`max_usd_per_day`), written before the
 *    run's first call in the transaction that checks the day, released when the run
 *    ends, expired like a pending call when the process that made it died.
 * 5. `calls.tool_tokens`: the estimated tokens of the tool definitions a turn's call
 *    sent (`agent mcp show` reports them; lazy definitions keep them small).
 * 6. `calls.recall_tokens`: the estimated tokens of recalled memories a turn's call
 *    carried, so `agent spend` can say what memory adds to each answer (the memory
 *    role's own calls are rows with `purpose = memory`).
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { LedgerError } from "./types.ts";

/** The schema version this code writes. */
export const SCHEMA_VERSION = 6;

/** The token columns of `calls` and `spend_day`. */
export const TOKEN_COLUMNS = [
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
] as const;

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

// Version 3: estimated rows, call ids, and the calls in flight (pending rows).
const SCHEMA_V3 = `
ALTER TABLE calls ADD COLUMN estimated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE calls ADD COLUMN call_id TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS calls_call_id ON calls (call_id) WHERE call_id IS NOT NULL;
ALTER TABLE spend_day ADD COLUMN estimated_calls INTEGER NOT NULL DEFAULT 0;
ALTER TABLE calls ADD COLUMN purpose TEXT NOT NULL DEFAULT 'turn';
CREATE TABLE IF NOT EXISTS pending (
  call_id TEXT PRIMARY KEY,
  ts INTEGER NOT NULL,
  pid INTEGER NOT NULL,
  role TEXT NOT NULL,
  provider TEXT NOT NULL,
  model_id TEXT NOT NULL,
  input_tokens INTEGER NOT NULL,
  estimate_usd REAL,
  reserved_usd REAL NOT NULL,
  channel TEXT NOT NULL,
  session_id TEXT,
  peer TEXT,
  purpose TEXT NOT NULL DEFAULT 'turn'
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS pending_role ON pending (role);
`;

// Version 4: a job run's hold on its job's day, so runs at once never pass the day.
const SCHEMA_V4 = `
CREATE TABLE IF NOT EXISTS holds (
  hold_id TEXT PRIMARY KEY,
  job TEXT NOT NULL,
  session_id TEXT NOT NULL,
  pid INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  usd REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS holds_job ON holds (job);
`;

// Version 5: what a call sent in tool definitions.
const SCHEMA_V5 = `
ALTER TABLE calls ADD COLUMN tool_tokens INTEGER NOT NULL DEFAULT 0;
`;

// Version 6: what recalled memories added to a call's prompt.
const SCHEMA_V6 = `
ALTER TABLE calls ADD COLUMN recall_tokens INTEGER NOT NULL DEFAULT 0;
`;

type Row = Record<string, unknown>;

/** `PRAGMA user_version` of `db`. */
export function schemaVersion(db: DatabaseSync): number {
  const value = (db.prepare("PRAGMA user_version").get() as Row | undefined)?.user_version;
  return typeof value === "number" ? value : Number(value ?? 0);
}

/**
 * Brings `db` to {@linkcode SCHEMA_VERSION} in one `BEGIN IMMEDIATE` transaction (a
 * process that waited for the lock finds the work done). Throws {@linkcode LedgerError}
 * for a ledger written by a newer agent.
 */
export function migrate(db: DatabaseSync, file: string): void {
  const tooNew = (v: number) =>
    new LedgerError(
      "open",
      file,
      `it has schema version ${v}, and this agent knows up to ${SCHEMA_VERSION}`,
    );
  const seen = schemaVersion(db);
  if (seen === SCHEMA_VERSION) return;
  if (seen > SCHEMA_VERSION) throw tooNew(seen);
  db.exec("BEGIN IMMEDIATE");
  try {
    // Another process may have created the tables while this one waited for the lock.
    const current = schemaVersion(db);
    if (current > SCHEMA_VERSION) throw tooNew(current);
    if (current < 1) db.exec(SCHEMA_V1);
    if (current < 2) db.exec(SCHEMA_V2);
    if (current < 3) db.exec(SCHEMA_V3);
    if (current < 4) db.exec(SCHEMA_V4);
    if (current < 5) db.exec(SCHEMA_V5);
    if (current < 6) db.exec(SCHEMA_V6);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
