/**
 * The spend ledger: `<AGENT_DATA_DIR>/spend.sqlite3`, one row per model call that was
 * sent (time, role, provider, model id, token counts, dollars, channel, session, peer,
 * whether the tokens were estimated; never any text), shared by every process that
 * uses the data directory.
 *
 * Several processes (hub, chat, TUI) write it at once: SQLite in WAL mode with a busy
 * timeout, and every write in a `BEGIN IMMEDIATE` transaction so a writer waits for the
 * lock instead of failing half-way. Each insert also adds the call to a per-role,
 * per-Istanbul-day total in the same transaction, so the sum for a month is at most 31
 * rows of `spend_day` however many calls the ledger holds.
 *
 * A call is written as `pending` before it is sent ({@linkcode Ledger.begin}, which
 * also holds a hard cap's reservation in the same transaction as the check), then
 * replaced by its row when it ends ({@linkcode Ledger.settle}). The schema and its
 * versions are in `ledger_schema.ts`, the SQL each write and budget check runs in
 * `ledger_rows.ts`.
 *
 * Reports open the ledger read-only ({@linkcode Ledger.openExisting}), so `agent spend`
 * and `agent doctor` work on a home they may not write.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { breakdownRows, callRows, dayRows, num, type Row } from "./reports.ts";
import {
  admitHold,
  admitPending,
  claimWarningIn,
  expireHolds,
  inTransaction,
  putCall,
  sessionSpendIn,
  settleAsEstimated,
  spentIn,
} from "./rows.ts";
import { schemaVersion } from "./schema.ts";
import { type LedgerStatements, prepareStatements } from "./statements.ts";
import { connect, createFile, exists } from "./open.ts";
import type {
  DayCap,
  HardCap,
  HoldAnswer,
  PendingCall,
  Reservation,
  RunHold,
  SessionCeiling,
} from "./pending.ts";
import { processAlive } from "../process_alive.ts";
import {
  type BreakdownKey,
  type BreakdownOptions,
  type BreakdownRow,
  type CallRecord,
  checkRecord,
  type DayRow,
  LedgerError,
  type SpentTotals,
} from "./types.ts";

export * from "./types.ts";

export { SCHEMA_VERSION } from "./schema.ts";
export type {
  DayCap,
  HardCap,
  HoldAnswer,
  PendingCall,
  Reservation,
  RunHold,
  SessionCeiling,
} from "./pending.ts";

const CHECKPOINT_EVERY = 500;

/**
 * The holds this process's runs keep (whichever connection wrote them): a hold under
 * this process's id that is not here is a former process's (a container restarts with
 * the same id), so it is expired.
 */
const OWN_HOLDS = new Set<string>();

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
  #readOnly: boolean;
  /** The ledger has version 3's columns (a read-only ledger may be older). */
  #v3: boolean;
  /** Prepared once: a statement per call would leave its finalising to the collector. */
  #sql: LedgerStatements;
  /** The private copy a read-only ledger was read from, removed on close. */
  #copy: string | undefined;
  #closed = false;
  #writesSinceCheckpoint = 0;
  #onRecorded: ((rows: readonly CallRecord[]) => void) | undefined;

  private constructor(db: DatabaseSync, file: string, readOnly: boolean) {
    this.#db = db;
    this.#file = file;
    this.#readOnly = readOnly;
    this.#v3 = schemaVersion(db) >= 3;
    this.#sql = prepareStatements(db, this.#v3, readOnly);
  }

  /**
   * Opens the ledger at `file` for writing, creating it (mode 0600) and its directory
   * when missing, and the tables when new; then settles the calls in flight of
   * processes that died. Throws {@linkcode LedgerError}.
   */
  static open(
    file: string,
    options: { alive?: (pid: number) => boolean | undefined } = {},
  ): Ledger {
    createFile(file);
    const ledger = Ledger.#connect(file, false);
    try {
      ledger.settleStale(options.alive ?? processAlive);
    } catch (error) {
      ledger.close();
      throw error;
    }
    return ledger;
  }

  /**
   * Opens the ledger at `file` for a conversation: writable, or read-only when this
   * process may not write it (a home that is readable but not writable; see
   * {@linkcode Ledger.readOnly}): budgets are still checked, calls cannot be counted.
   * Throws {@linkcode LedgerError}.
   */
  static openForCalls(file: string): Ledger {
    try {
      return Ledger.open(file);
    } catch (error) {
      if (!(error instanceof LedgerError) || error.detail !== "permission denied") throw error;
      const reader = Ledger.openExisting(file);
      if (reader === undefined) throw error;
      return reader;
    }
  }

  /**
   * Opens the ledger at `file` read-only, for reports, only when it exists (a reader
   * never creates it); `undefined` when there is no file. Throws {@linkcode LedgerError}.
   */
  static openExisting(file: string): Ledger | undefined {
    return exists(file) ? Ledger.#connect(file, true) : undefined;
  }

  static #connect(file: string, readOnly: boolean): Ledger {
    const { db, copy } = connect(file, readOnly);
    const ledger = new Ledger(db, file, readOnly);
    ledger.#copy = copy;
    return ledger;
  }

  /** The ledger's file. */
  get file(): string {
    return this.#file;
  }

  /** Opened read-only (a report's ledger): every write throws. */
  get readOnly(): boolean {
    return this.#readOnly;
  }

  /** Writes one call and adds it to its day's total, atomically. */
  record(row: CallRecord): void {
    this.recordMany([row]);
  }

  /** Writes several calls in one transaction (imports, tests, benchmarks). */
  recordMany(rows: readonly CallRecord[]): void {
    this.#told(this.#recordAll(rows));
  }

  /**
   * Writes rows that came from elsewhere (the cloud ledger) without telling
   * {@linkcode Ledger.onRecorded}; rows already here (by call id) are skipped.
   */
  importRows(rows: readonly CallRecord[]): void {
    this.#recordAll(rows);
  }

  /**
   * Told of every row this ledger writes for a call (record, settle, settled at open),
   * after its transaction committed, with its call id: the cloud ledger appends them.
   */
  set onRecorded(listener: ((rows: readonly CallRecord[]) => void) | undefined) {
    this.#onRecorded = listener;
  }

  #recordAll(rows: readonly CallRecord[]): CallRecord[] {
    this.#open();
    for (const row of rows) checkRecord(row);
    // Every row gets an id, so the cloud ledger can store it once however often it is sent.
    const named = rows.map((r) => r.call_id ? r : { ...r, call_id: crypto.randomUUID() });
    this.#write(() => {
      for (const r of named) putCall(this.#sql, r);
    });
    this.#checkpointNow(rows.length);
    return named;
  }

  #told(rows: readonly CallRecord[]): void {
    if (this.#onRecorded === undefined || rows.length === 0) return;
    try {
      this.#onRecorded(rows);
    } catch { /* a listener's failure never undoes a written row */ }
  }

  /**
   * Writes `call` as pending before it is sent. With `cap` (a hard cap) the call's
   * reservation must fit: settled spend in the period, plus what other calls in flight
   * hold, plus this call's `reserved_usd`, at most the cap; checked and written in one
   * `BEGIN IMMEDIATE` transaction so no two processes pass on the same headroom.
   */
  begin(call: PendingCall, cap?: HardCap, ceiling?: SessionCeiling): Reservation {
    this.#open();
    let result: Reservation = { ok: true };
    this.#write(() => {
      result = admitPending(this.#db, this.#sql, call, cap, ceiling);
    });
    return result;
  }

  /**
   * Replaces the pending call `row.call_id` by its row (its reservation by its cost),
   * atomically; a call already settled (by another process) is not written twice.
   */
  settle(row: CallRecord & { call_id: string }): void {
    this.#open();
    checkRecord(row);
    this.#write(() => {
      this.#sql.dropPending!.run(row.call_id);
      putCall(this.#sql, row);
    });
    this.#checkpointNow();
    this.#told([row]);
  }

  /**
   * What session `sessionId` spent since `sinceMs` (settled rows) and what its calls in
   * flight hold: a job's run, measured against its ceiling.
   */
  sessionSpend(sessionId: string, sinceMs: number): { spentUsd: number; reservedUsd: number } {
    this.#open();
    try {
      return sessionSpendIn(this.#db, sessionId, sinceMs);
    } catch (error) {
      throw new LedgerError("read", this.#file, error);
    }
  }

  /**
   * Holds a share of job `hold.job`'s day for one run, before its first call: the day's
   * settled spend of the job, what its calls in flight keep and what its running runs
   * hold, plus this run's hold (the least of `cap.runUsd` and what is left, at least
   * `cap.minUsd`), at most `cap.usd`; checked and written in one `BEGIN IMMEDIATE`
   * transaction, so runs at once in any processes never pass the day. A hold whose
   * process is gone (`alive` says false) is expired first, as its pending calls are.
   * The run's calls are capped at the hold ({@linkcode SessionCeiling}); release it
   * with {@linkcode Ledger.releaseHold} when the run ends.
   */
  hold(
    hold: RunHold,
    cap: DayCap,
    alive: (pid: number) => boolean | undefined = processAlive,
  ): HoldAnswer {
    this.#open();
    let answer: HoldAnswer = { ok: false, spentUsd: 0, heldUsd: 0 };
    let settled: CallRecord[] = [];
    this.#write(() => {
      settled = expireHolds(this.#sql, this.#db, hold.job, (id, pid) => goneHold(id, pid, alive));
      answer = admitHold(this.#sql, hold, cap, Deno.pid);
    });
    if (answer.ok) OWN_HOLDS.add(hold.holdId);
    this.#told(settled);
    return answer;
  }

  /** Releases a run's hold: the day counts what its calls cost from now on. */
  releaseHold(holdId: string): void {
    this.#open();
    this.#write(() => {
      this.#sql.dropHold!.run(holdId);
    });
    OWN_HOLDS.delete(holdId);
  }

  /** Drops a pending call that was never sent (a stand-in answered, a key was missing). */
  release(callId: string): void {
    this.#open();
    this.#write(() => {
      this.#sql.dropPending!.run(callId);
    });
  }

  /**
   * Settles as estimated rows the pending calls of processes that are gone (`alive`
   * says false), and drops their runs' holds; returns how many calls. A call of a process that may be alive (`alive` says
   * true or cannot tell) stays pending.
   */
  settleStale(alive: (pid: number) => boolean | undefined): number {
    this.#open();
    const rows = this.#db.prepare("SELECT * FROM pending").all() as unknown as PendingCall[];
    const dead = rows.filter((p) => p.pid !== Deno.pid && alive(p.pid) === false);
    const holds = this.#db.prepare("SELECT hold_id, pid FROM holds").all() as {
      hold_id: string;
      pid: number;
    }[];
    const goneHolds = holds.some((h) => goneHold(h.hold_id, h.pid, alive));
    if (dead.length === 0 && !goneHolds) return 0;
    let settled: CallRecord[] = [];
    this.#write(() => {
      settled = settleAsEstimated(this.#sql, dead);
      // A run's hold goes with its process, like its calls in flight.
      expireHolds(this.#sql, this.#db, undefined, (id, pid) => goneHold(id, pid, alive));
    });
    this.#told(settled);
    return dead.length;
  }

  /** The calls in flight (pending rows), oldest first. */
  pending(): PendingCall[] {
    this.#open();
    if (!this.#v3) return [];
    return this.#db.prepare("SELECT * FROM pending ORDER BY ts").all() as unknown as PendingCall[];
  }

  /**
   * What `role` spent from `sinceMs` on. From an Istanbul midnight (every budget
   * period starts at one) this reads only the daily totals.
   */
  spent(role: string, sinceMs: number): SpentTotals {
    this.#open();
    try {
      return spentIn(this.#sql, role, sinceMs);
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
    try {
      return breakdownRows(this.#db, this.#v3, by, options);
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
    try {
      return dayRows(this.#db, this.#v3, options);
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
      claimed = claimWarningIn(this.#db, role, sinceMs, atMs);
    });
    return claimed;
  }

  /** The calls from `sinceMs` on, oldest first. */
  rowsSince(sinceMs: number): CallRecord[] {
    this.#open();
    try {
      return callRows(this.#db, this.#v3, sinceMs);
    } catch (error) {
      throw new LedgerError("read", this.#file, error);
    }
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
    try {
      this.#db.close();
    } finally {
      if (this.#copy !== undefined) Deno.removeSync(this.#copy, { recursive: true });
    }
  }

  /** Closes the ledger at the end of a `using` block. */
  [Symbol.dispose](): void {
    this.close();
  }

  /**
   * Every 500 rows written by call-ending writes (a few MB of WAL), moves the WAL into the database without waiting for
   * readers (SQLite's own automatic checkpoint does this every 1,000 pages, at any write).
   */
  #checkpointNow(rows = 1): void {
    this.#writesSinceCheckpoint += rows;
    if (this.#writesSinceCheckpoint < CHECKPOINT_EVERY) return;
    this.#writesSinceCheckpoint = 0;
    try {
      this.#db.exec("PRAGMA wal_checkpoint(PASSIVE)");
    } catch { /* busy: the next one will do */ }
  }

  #open(): void {
    if (this.#closed) {
      throw new LedgerError("use", this.#file, "it is closed");
    }
  }

  #write(body: () => void): void {
    if (this.#readOnly) {
      throw new LedgerError("write", this.#file, "it was opened read-only");
    }
    inTransaction(this.#db, this.#file, body);
  }
}

/** Whether a run's hold is a gone process's: another's that is not alive, or a former process's with this id. */
function goneHold(
  holdId: string,
  pid: number,
  alive: (pid: number) => boolean | undefined,
): boolean {
  return pid === Deno.pid ? !OWN_HOLDS.has(holdId) : alive(pid) === false;
}
