/**
 * The ledger's statements that run on every call (the budget check's sums, the call's
 * row and its day's total, the pending row and its reservation, a job run's hold on its
 * day), prepared once per
 * connection: a statement prepared per call would leave its finalising to the garbage
 * collector, whose pauses showed in the budget check's p99.
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { TOKEN_COLUMNS } from "./schema.ts";

/** The prepared statements; the writing ones are absent on a read-only connection. */
export interface LedgerStatements {
  sumDays: StatementSync;
  sumCalls: StatementSync;
  insert?: StatementSync;
  addDay?: StatementSync;
  reserved?: StatementSync;
  addPending?: StatementSync;
  dropPending?: StatementSync;
  holds?: StatementSync;
  addHold?: StatementSync;
  dropHold?: StatementSync;
  jobSpent?: StatementSync;
  jobPending?: StatementSync;
}

/** Prepares them on `db`; `v3` says whether it has the estimated columns. */
export function prepareStatements(
  db: DatabaseSync,
  v3: boolean,
  readOnly: boolean,
): LedgerStatements {
  const sumDays = db.prepare(
    `SELECT TOTAL(usd) AS usd, TOTAL(calls) AS calls, TOTAL(unpriced_calls) AS unpriced,
       ${v3 ? "TOTAL(estimated_calls)" : "0"} AS estimated
     FROM spend_day WHERE role = ? AND day >= ?`,
  );
  const sumCalls = db.prepare(
    `SELECT TOTAL(usd) AS usd, COUNT(*) AS calls, TOTAL(usd IS NULL) AS unpriced,
       ${v3 ? "TOTAL(estimated)" : "0"} AS estimated
     FROM calls WHERE role = ? AND ts >= ? AND ts < ?`,
  );
  if (readOnly) return { sumDays, sumCalls };
  return {
    sumDays,
    sumCalls,
    insert: db.prepare(
      `INSERT OR IGNORE INTO calls (ts, role, provider, model_id, input_tokens, output_tokens,
        cache_read_tokens, cache_write_tokens, usd, channel, session_id, peer, estimated, call_id,
        purpose, tool_tokens, recall_tokens)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    addDay: db.prepare(
      `INSERT INTO spend_day (role, day, usd, calls, unpriced_calls, estimated_calls,
         ${TOKEN_COLUMNS.join(", ")})
       VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (role, day) DO UPDATE SET usd = usd + excluded.usd,
         calls = calls + 1, unpriced_calls = unpriced_calls + excluded.unpriced_calls,
         estimated_calls = estimated_calls + excluded.estimated_calls,
         ${TOKEN_COLUMNS.map((c) => `${c} = ${c} + excluded.${c}`).join(", ")}`,
    ),
    reserved: db.prepare("SELECT TOTAL(reserved_usd) AS usd FROM pending WHERE role = ?"),
    addPending: db.prepare(
      `INSERT INTO pending (call_id, ts, pid, role, provider, model_id, input_tokens,
         estimate_usd, reserved_usd, channel, session_id, peer, purpose)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    dropPending: db.prepare("DELETE FROM pending WHERE call_id = ?"),
    holds: db.prepare("SELECT hold_id, pid, usd FROM holds WHERE job = ?"),
    addHold: db.prepare(
      "INSERT INTO holds (hold_id, job, session_id, pid, ts, usd) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    dropHold: db.prepare("DELETE FROM holds WHERE hold_id = ?"),
    // A job's calls since the day began (its runs' sessions are `job-<name>-<date>-…`),
    // but those of a run that holds the day: its hold counts for them.
    jobSpent: db.prepare(
      `SELECT TOTAL(usd) AS usd FROM calls WHERE ts >= ? AND channel = 'job'
         AND session_id GLOB ? AND session_id NOT IN (SELECT session_id FROM holds WHERE job = ?)`,
    ),
    jobPending: db.prepare(
      `SELECT TOTAL(reserved_usd) AS usd FROM pending WHERE channel = 'job'
         AND session_id GLOB ? AND session_id NOT IN (SELECT session_id FROM holds WHERE job = ?)`,
    ),
  };
}
