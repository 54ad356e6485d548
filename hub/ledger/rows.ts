/**
 * What the ledger does inside one transaction, on its prepared statements: a call's row
 * with its day's total, a pending call, the sums a budget check reads (settled spend,
 * what calls in flight hold, a session's spend), the hard cap's admission and a job
 * run's hold on its day. The
 * {@linkcode Ledger} class keeps the connection, its life and who is told; this file
 * keeps the SQL, so each stays small.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { dayStart, nextDayStart } from "./periods.ts";
import { num, type Row, totalsOf } from "./reports.ts";
import type { LedgerStatements } from "./statements.ts";
import {
  type DayCap,
  type HardCap,
  type HoldAnswer,
  type PendingCall,
  pendingRecord,
  type Reservation,
  type RunHold,
  type SessionCeiling,
} from "./pending.ts";
import { type CallRecord, LedgerError, type SpentTotals } from "./types.ts";

/**
 * Runs `body` in a `BEGIN IMMEDIATE` transaction (a writer waits for the lock instead
 * of failing half-way), rolled back when it throws. Throws {@linkcode LedgerError}.
 */
export function inTransaction(db: DatabaseSync, file: string, body: () => void): void {
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (error) {
    throw new LedgerError("write", file, error);
  }
  try {
    body();
    db.exec("COMMIT");
  } catch (error) {
    try {
      db.exec("ROLLBACK");
    } catch { /* the transaction is already gone */ }
    throw new LedgerError("write", file, error);
  }
}

/**
 * Inserts one call and adds it to its role's Istanbul-day total; a call id already in
 * the ledger (settled before, by this or another process) changes nothing.
 */
export function putCall(sql: LedgerStatements, r: CallRecord): void {
  const written = sql.insert!.run(
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
    r.estimated === true ? 1 : 0,
    r.call_id ?? null,
    r.purpose ?? "turn",
    r.tool_tokens ?? 0,
    r.recall_tokens ?? 0,
  );
  if (Number(written.changes) === 0) return;
  sql.addDay!.run(
    r.role,
    dayStart(r.ts),
    r.usd ?? 0,
    r.usd === null ? 1 : 0,
    r.estimated === true ? 1 : 0,
    r.input_tokens,
    r.output_tokens,
    r.cache_read_tokens,
    r.cache_write_tokens,
  );
}

/**
 * Admits `call` against the session's `ceiling` and the role's hard `cap` (settled
 * spend plus what calls in flight hold plus this call's reservation) and, when it
 * fits, writes it as pending. Run inside the transaction that makes the check hold.
 */
export function admitPending(
  db: DatabaseSync,
  sql: LedgerStatements,
  call: PendingCall,
  cap?: HardCap,
  ceiling?: SessionCeiling,
): Reservation {
  if (ceiling !== undefined) {
    const { spentUsd, reservedUsd } = sessionSpendIn(db, ceiling.sessionId, ceiling.sinceMs);
    if (spentUsd + reservedUsd + call.reserved_usd > ceiling.usd + 1e-9) {
      return { ok: false, ceiling: true, spentUsd, reservedUsd };
    }
  }
  if (cap !== undefined) {
    const spentUsd = spentIn(sql, call.role, cap.sinceMs).usd;
    const reservedUsd = num(sql.reserved!.get(call.role) as Row, "usd");
    if (spentUsd + reservedUsd + call.reserved_usd > cap.usd + 1e-9) {
      return { ok: false, spentUsd, reservedUsd };
    }
  }
  sql.addPending!.run(
    call.call_id,
    call.ts,
    call.pid,
    call.role,
    call.provider,
    call.model_id,
    call.input_tokens,
    call.estimate_usd,
    call.reserved_usd,
    call.channel,
    call.session_id,
    call.peer,
    call.purpose ?? "turn",
  );
  return { ok: true };
}

/**
 * Replaces each pending call by its estimated row; returns the rows written (a call
 * another process settled meanwhile is left out).
 */
export function settleAsEstimated(
  sql: LedgerStatements,
  calls: readonly PendingCall[],
): CallRecord[] {
  const settled: CallRecord[] = [];
  for (const p of calls) {
    const gone = sql.dropPending!.run(p.call_id);
    if (Number(gone.changes) !== 1) continue;
    const row = pendingRecord(p);
    putCall(sql, row);
    settled.push(row);
  }
  return settled;
}

/** Records `role`'s warning for the period from `sinceMs`; true only the first time. */
export function claimWarningIn(
  db: DatabaseSync,
  role: string,
  sinceMs: number,
  atMs: number,
): boolean {
  const result = db.prepare(
    "INSERT OR IGNORE INTO budget_warnings (role, since, at) VALUES (?, ?, ?)",
  ).run(role, sinceMs, atMs);
  return Number(result.changes) === 1;
}

/**
 * What session `sessionId` spent since `sinceMs` (settled rows) and what its calls in
 * flight hold.
 */
export function sessionSpendIn(
  db: DatabaseSync,
  sessionId: string,
  sinceMs: number,
): { spentUsd: number; reservedUsd: number } {
  const spent = db.prepare(
    "SELECT TOTAL(usd) AS usd FROM calls WHERE ts >= ? AND session_id = ?",
  ).get(sinceMs, sessionId) as Row;
  const reserved = db.prepare(
    "SELECT TOTAL(reserved_usd) AS usd FROM pending WHERE session_id = ?",
  ).get(sessionId) as Row;
  return { spentUsd: num(spent, "usd"), reservedUsd: num(reserved, "usd") };
}

/**
 * What `role` spent from `sinceMs` on. From an Istanbul midnight (every budget period
 * starts at one) this reads only the daily totals.
 */
export function spentIn(sql: LedgerStatements, role: string, sinceMs: number): SpentTotals {
  const first = dayStart(sinceMs);
  if (first === sinceMs) return totalsOf(sql.sumDays.get(role, first) as Row);
  // A span starting mid-day: the rest of that day from the rows, then whole days.
  const next = nextDayStart(sinceMs);
  const part = totalsOf(sql.sumCalls.get(role, sinceMs, next) as Row);
  const rest = totalsOf(sql.sumDays.get(role, next) as Row);
  return {
    usd: part.usd + rest.usd,
    calls: part.calls + rest.calls,
    unpriced_calls: part.unpriced_calls + rest.unpriced_calls,
    estimated_calls: part.estimated_calls + rest.estimated_calls,
  };
}

/** The sessions of job `job`'s runs, as a GLOB: `job-<name>-YYYYMMDD-HHMMSS-xxxx`. */
export function jobSessions(job: string): string {
  return `job-${job}-${"[0-9]".repeat(8)}-*`;
}

/**
 * Holds `cap`'s day for a run of `hold.job` when it fits: the job's settled spend since
 * the day began (but the calls of runs that hold it: their holds count instead), what
 * its calls in flight outside a hold keep, and what running runs hold leave at least
 * `cap.minUsd`. The hold is the least of `cap.runUsd` and what is left. Run inside the
 * transaction that makes the check hold.
 */
export function admitHold(
  sql: LedgerStatements,
  hold: RunHold,
  cap: DayCap,
  pid: number,
): HoldAnswer {
  const glob = jobSessions(hold.job);
  const spentUsd = num(sql.jobSpent!.get(cap.sinceMs, glob, hold.job) as Row, "usd") +
    num(sql.jobPending!.get(glob, hold.job) as Row, "usd");
  const heldUsd = (sql.holds!.all(hold.job) as Row[]).reduce((sum, r) => sum + num(r, "usd"), 0);
  const left = cap.usd - spentUsd - heldUsd;
  if (left <= 1e-9 || left + 1e-9 < cap.minUsd) return { ok: false, spentUsd, heldUsd };
  const usd = Math.min(cap.runUsd ?? left, left);
  sql.addHold!.run(hold.holdId, hold.job, hold.sessionId, pid, hold.ts, usd);
  return { ok: true, usd };
}

/**
 * Drops the holds of `job` (every job when `undefined`) whose process is gone, as a
 * pending call of a dead process is settled: `dead` says which. The calls in flight of
 * those processes are settled as estimated rows with them, so the day counts what they
 * may have cost; returns those rows.
 */
export function expireHolds(
  sql: LedgerStatements,
  db: DatabaseSync,
  job: string | undefined,
  dead: (holdId: string, pid: number) => boolean,
): CallRecord[] {
  const rows =
    (job === undefined
      ? db.prepare("SELECT hold_id, pid FROM holds").all()
      : sql.holds!.all(job)) as Row[];
  const settled: CallRecord[] = [];
  for (const r of rows) {
    const pid = num(r, "pid");
    if (!dead(String(r.hold_id), pid)) continue;
    sql.dropHold!.run(String(r.hold_id));
    if (pid === Deno.pid) continue;
    const calls = db.prepare("SELECT * FROM pending WHERE pid = ?").all(
      pid,
    ) as unknown as PendingCall[];
    settled.push(...settleAsEstimated(sql, calls));
  }
  return settled;
}
