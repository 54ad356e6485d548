/**
 * The dashboard's breakdowns (by channel, contact and session) without reading every
 * call: a table `spend_groups` in the ledger file with one row per Istanbul day,
 * channel, session and peer (every role together: budgets read `spend_day`), kept by
 * a trigger on `calls` (so every writer, the hub or
 * a CLI process, keeps it current) and filled once from the calls when it is created.
 * A month's breakdown then reads one row per group and day instead of every call: at
 * 1,000,000 calls it answers in milliseconds where grouping the calls takes seconds.
 *
 * The day is the Europe/Istanbul day of the call by the tz database's rules, the same
 * day `spend_day` uses (`dayStart`): the trigger looks it up in a table of day starts
 * computed in TypeScript (`spend_days.ts`), not with a fixed offset, and the table and
 * every bucket are rebuilt when the zone's rules change.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { TIME_ZONE } from "../i18n.ts";
import { dayOfSql, offsetNowMs, writeDayTable, zoneFingerprint } from "./days.ts";

const TOKENS = ["input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"];
const DAYS = "spend_group_days";
const META = "spend_groups_meta";

const TABLE = `
CREATE TABLE IF NOT EXISTS spend_groups (
  day INTEGER NOT NULL,
  channel TEXT NOT NULL,
  session_id TEXT NOT NULL,
  peer TEXT NOT NULL,
  usd REAL NOT NULL,
  calls INTEGER NOT NULL,
  unpriced_calls INTEGER NOT NULL,
  estimated_calls INTEGER NOT NULL,
  ${TOKENS.map((c) => `${c} INTEGER NOT NULL`).join(",\n  ")},
  PRIMARY KEY (day, channel, session_id, peer)
) WITHOUT ROWID`;

/** The trigger's name; a new shape of the table gets a new name (and is rebuilt). */
const TRIGGER_NAME = "spend_groups_v3";
/** The triggers of older shapes, dropped when the table is rebuilt. */
const OLD_TRIGGERS = ["spend_groups_insert", "spend_groups_v2"];

// `estimated` is the ledger's column since its version 3; an older file counts none.
const TRIGGER = (estimated: string, dayOf: (ts: string) => string) => `
CREATE TRIGGER ${TRIGGER_NAME} AFTER INSERT ON calls BEGIN
  INSERT INTO spend_groups (day, channel, session_id, peer, usd, calls, unpriced_calls,
    estimated_calls, ${TOKENS.join(", ")})
  VALUES (${dayOf("NEW.ts")}, NEW.channel, COALESCE(NEW.session_id, ''),
    COALESCE(NEW.peer, ''), COALESCE(NEW.usd, 0), 1, NEW.usd IS NULL, ${estimated},
    ${TOKENS.map((c) => `NEW.${c}`).join(", ")})
  ON CONFLICT (day, channel, session_id, peer) DO UPDATE SET
    usd = usd + excluded.usd, calls = calls + 1,
    unpriced_calls = unpriced_calls + excluded.unpriced_calls,
    estimated_calls = estimated_calls + excluded.estimated_calls,
    ${TOKENS.map((c) => `${c} = ${c} + excluded.${c}`).join(", ")};
END`;

const BACKFILL = (estimated: string, dayOf: (ts: string) => string) => `
INSERT INTO spend_groups (day, channel, session_id, peer, usd, calls, unpriced_calls,
  estimated_calls, ${TOKENS.join(", ")})
SELECT ${dayOf("ts")} AS d, channel, COALESCE(session_id, ''), COALESCE(peer, ''),
  TOTAL(usd), COUNT(*), TOTAL(usd IS NULL), TOTAL(${estimated}),
  ${TOKENS.map((c) => `TOTAL(${c})`).join(", ")}
FROM calls GROUP BY d, channel, COALESCE(session_id, ''), COALESCE(peer, '')`;

/** Options for {@linkcode ensureSpendGroups}. */
export interface SpendGroupsOptions {
  /** The zone whose days the buckets are. @default "Europe/Istanbul" */
  timeZone?: string;
}

/**
 * Makes sure the ledger at `file` has the table and its trigger, bucketed by the days
 * of the zone's current rules; when the trigger is missing (a new table, or a ledger
 * whose calls table was rebuilt) or the zone's rules changed since the table was
 * built, the day table and the buckets are built again from the calls, in one
 * transaction with the trigger's creation so no call is counted twice or missed.
 * Nothing happens without a ledger file.
 */
export function ensureSpendGroups(file: string, options: SpendGroupsOptions = {}): void {
  try {
    Deno.statSync(file);
  } catch {
    return;
  }
  const timeZone = options.timeZone ?? TIME_ZONE;
  const fingerprint = zoneFingerprint(timeZone);
  const db = new DatabaseSync(file);
  const current = () => {
    const has = db.prepare(
      "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?",
    ).get(TRIGGER_NAME);
    if (has === undefined) return false;
    const zone = db.prepare(`SELECT value FROM ${META} WHERE key = 'zone'`).get() as
      | { value: string }
      | undefined;
    return zone?.value === fingerprint;
  };
  try {
    db.exec("PRAGMA busy_timeout = 10000");
    db.exec(`CREATE TABLE IF NOT EXISTS ${META} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    if (current()) return;
    db.exec("BEGIN IMMEDIATE");
    try {
      // Another process may have rebuilt it while this one waited for the lock.
      if (current()) {
        db.exec("COMMIT");
        return;
      }
      const calls = db.prepare(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'calls'",
      ).get();
      if (calls === undefined) {
        db.exec("ROLLBACK");
        return;
      }
      const columns = db.prepare("PRAGMA table_info(calls)").all() as { name: string }[];
      const estimated = columns.some((c) => c.name === "estimated");
      // An older shape of the rollup, or one of older zone rules, goes: it is rebuilt
      // from the calls below.
      for (const name of [...OLD_TRIGGERS, TRIGGER_NAME]) db.exec(`DROP TRIGGER IF EXISTS ${name}`);
      db.exec("DROP TABLE IF EXISTS spend_groups");
      writeDayTable(db, DAYS, timeZone);
      const fallback = offsetNowMs(timeZone);
      const dayOf = (ts: string) => dayOfSql(DAYS, ts, fallback);
      db.exec(TABLE);
      db.exec(BACKFILL(estimated ? "estimated" : "0", dayOf));
      db.exec(TRIGGER(estimated ? "NEW.estimated" : "0", dayOf));
      db.prepare(`INSERT OR REPLACE INTO ${META} (key, value) VALUES ('zone', ?)`).run(
        fingerprint,
      );
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  } finally {
    db.close();
  }
}

/** What a breakdown is grouped by. */
export type GroupBy = "channel" | "contact" | "session" | "job";

/**
 * The job a `job` channel's session belongs to, in SQL: its id is
 * `job-<name>-YYYYMMDD-HHMMSS-xxxx` (`newSessionId`), so the name is what lies between
 * `job-` and the 21-character time and random tail; `-` for an id of another shape
 * (the same rule as `agent spend --by job`).
 */
const JOB_OF_SESSION = `CASE WHEN session_id GLOB 'job-[a-z]?*-${"[0-9]".repeat(8)}-${
  "[0-9]".repeat(6)
}-${"[0-9a-f]".repeat(4)}' THEN substr(session_id, 5, length(session_id) - 25) ELSE '-' END`;

/** One row of a breakdown (the shape of `spendBy`'s rows). */
export interface GroupRow {
  /** A channel, `<peer>`, or `<channel> <session id>`. */
  key: string;
  channel: string;
  /** Session rows: the session, null for calls without one. */
  session_id?: string | null;
  usd: number;
  calls: number;
  unpriced_calls: number;
  /** Calls whose tokens were estimated (the provider's usage never came). */
  estimated_calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

/**
 * Spend from `sinceMs` to `untilMs` (Istanbul midnights) grouped by `by`, largest
 * first, from `spend_groups` over the read-only connection `db`.
 */
export function spendGroups(
  db: DatabaseSync,
  by: GroupBy,
  sinceMs: number,
  untilMs: number,
): GroupRow[] {
  const groups = by === "channel"
    ? "channel"
    : by === "session"
    ? "channel, session_id"
    : by === "job"
    ? "channel, job"
    : "channel, peer";
  const columns = by === "job" ? `channel, ${JOB_OF_SESSION} AS job` : groups;
  const rows = db.prepare(
    `SELECT ${columns}, TOTAL(usd) AS usd, TOTAL(calls) AS calls,
       TOTAL(unpriced_calls) AS unpriced_calls, TOTAL(estimated_calls) AS estimated_calls, ${
      TOKENS.map((c) => `TOTAL(${c}) AS ${c}`).join(", ")
    }
     FROM spend_groups WHERE day >= ? AND day < ? ${
      by === "contact" ? "AND peer <> ''" : by === "job" ? "AND channel = 'job'" : ""
    }
     GROUP BY ${groups} ORDER BY usd DESC, calls DESC`,
  ).all(sinceMs, untilMs) as Record<string, string | number>[];
  return rows.map((r) => {
    const session = r.session_id === "" ? null : (r.session_id as string | undefined);
    return {
      key: by === "channel"
        ? String(r.channel)
        : by === "contact"
        ? String(r.peer)
        : by === "job"
        ? String(r.job)
        : `${r.channel} ${session ?? "-"}`,
      channel: String(r.channel),
      ...(by === "session" ? { session_id: session ?? null } : {}),
      usd: Math.round(Number(r.usd) * 1e6) / 1e6,
      calls: Number(r.calls),
      unpriced_calls: Number(r.unpriced_calls),
      estimated_calls: Number(r.estimated_calls),
      input_tokens: Number(r.input_tokens),
      output_tokens: Number(r.output_tokens),
      cache_read_tokens: Number(r.cache_read_tokens),
      cache_write_tokens: Number(r.cache_write_tokens),
    };
  });
}

/** The channel breakdown summed from a session breakdown (every session has one channel). */
export function channelsOf(sessions: readonly GroupRow[]): GroupRow[] {
  const by = new Map<string, GroupRow>();
  for (const r of sessions) {
    const sum = by.get(r.channel);
    if (sum === undefined) {
      const { session_id: _, ...rest } = r;
      by.set(r.channel, { ...rest, key: r.channel });
      continue;
    }
    sum.usd += r.usd;
    sum.calls += r.calls;
    sum.unpriced_calls += r.unpriced_calls;
    sum.estimated_calls += r.estimated_calls;
    sum.input_tokens += r.input_tokens;
    sum.output_tokens += r.output_tokens;
    sum.cache_read_tokens += r.cache_read_tokens;
    sum.cache_write_tokens += r.cache_write_tokens;
  }
  return [...by.values()]
    .map((r) => ({ ...r, usd: Math.round(r.usd * 1e6) / 1e6 }))
    .sort((a, b) => b.usd - a.usd || b.calls - a.calls);
}
