/**
 * The job log and its state, in SQLite (`<data>/jobs.sqlite3`): every slot a hub
 * claimed (its id written before the run, so a slot runs at most once across
 * restarts, crashes and two hubs), how it ended and what it cost, which jobs are
 * paused (`pause_store.ts`), the answers on their way (`delivery_store.ts`) and since
 * when each job was watched (so a slot missed while no hub ran is found on start).
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { DELIVERY_SCHEMA, DeliveryStore, type NewDelivery } from "./delivery_store.ts";
import { PAUSE_SCHEMA, PauseStore } from "./pause_store.ts";
import { privateDatabaseFile } from "../sqlite_file.ts";
import { openReadOnly } from "../ledger/mod.ts";

/** How a slot ended. */
export type RunState =
  /** Claimed and running (or its hub died while it ran). */
  | "running"
  | "ok"
  | "failed"
  /** Missed while no hub ran, and skipped. */
  | "missed"
  /** Not run: the job or its budget was at a ceiling (the job is paused). */
  | "refused"
  /**
   * Its hub died during the run: settled at the next start with what its calls cost
   * (the ledger settles a call in flight as estimated), told to the owner, not run again.
   */
  | "interrupted"
  /** Run by the identity's other hub (the cloud brain, or the local hub), which claimed it first. */
  | "taken";

/** One row of the job log. */
export interface RunRow {
  slot_id: string;
  job: string;
  slot_ms: number;
  claimed_ms: number;
  state: RunState;
  /** Whether the slot was missed while no hub ran (run once on start, or skipped). */
  missed: boolean;
  usd: number;
  finished_ms: number | null;
  /** The answer (shortened), the error or the reason. */
  detail: string | null;
  session_id: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  slot_id TEXT PRIMARY KEY,
  job TEXT NOT NULL,
  slot_ms INTEGER NOT NULL,
  claimed_ms INTEGER NOT NULL,
  pid INTEGER NOT NULL,
  state TEXT NOT NULL,
  missed INTEGER NOT NULL DEFAULT 0,
  usd REAL NOT NULL DEFAULT 0,
  finished_ms INTEGER,
  detail TEXT,
  session_id TEXT
);
CREATE INDEX IF NOT EXISTS runs_job_slot ON runs (job, slot_ms);
CREATE TABLE IF NOT EXISTS seen (job TEXT PRIMARY KEY, since_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
${PAUSE_SCHEMA}${DELIVERY_SCHEMA}`;

/** The job store; one connection per process, shared by the scheduler and the CLI. */
export class JobStore {
  #db: DatabaseSync;
  #claim: StatementSync;
  #last: StatementSync;
  #seen: StatementSync;
  #since: StatementSync;
  /** The private copy a store opened to read works on (removed on close). */
  #copy: string | undefined;
  /** The answers on their way to the owner. */
  readonly deliveries: DeliveryStore;
  /** Which jobs are paused, and the pauses the spine has not got yet. */
  readonly pauses: PauseStore;
  /**
   * Told after a slot's entry in the log is finished (a run's end with its delivery, a
   * missed slot, an interrupted run): the cloud brain writes it to the spine.
   */
  onLogged: ((slotId: string) => void) | undefined;

  private constructor(db: DatabaseSync) {
    this.#db = db;
    this.deliveries = new DeliveryStore(db);
    this.pauses = new PauseStore(db);
    this.#claim = db.prepare(
      `INSERT OR IGNORE INTO runs (slot_id, job, slot_ms, claimed_ms, pid, state, missed)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#last = db.prepare("SELECT MAX(slot_ms) AS ms FROM runs WHERE job = ?");
    this.#seen = db.prepare("INSERT OR IGNORE INTO seen (job, since_ms) VALUES (?, ?)");
    this.#since = db.prepare("SELECT since_ms FROM seen WHERE job = ?");
  }

  /** Opens (and creates) the store at `file`. */
  static open(file: string): JobStore {
    // 0600 before SQLite opens it: its WAL files take the main file's mode.
    privateDatabaseFile(file);
    const db = new DatabaseSync(file);
    try {
      db.exec("PRAGMA busy_timeout = 5000");
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
      db.exec(SCHEMA);
    } catch (error) {
      db.close();
      throw error;
    }
    return new JobStore(db);
  }

  /**
   * Opens the store at `file` to read only, for a home that cannot be written (a
   * read-only file system): from a private copy, as the ledger does (SQLite would need to
   * make its WAL's shared-memory file beside it), and a store that was never made reads
   * as an empty one in memory. Nothing can run on such a home, so nothing is writing it.
   */
  static openToRead(file: string): JobStore {
    let db: DatabaseSync;
    let copy: string | undefined;
    try {
      ({ db, copy } = openReadOnly(file));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      db = new DatabaseSync(":memory:");
      db.exec(SCHEMA);
    }
    const store = new JobStore(db);
    store.#copy = copy;
    return store;
  }

  /**
   * Claims a slot before it runs: `true` for the one process that wrote its id first,
   * `false` for any other (or a second try of the same slot).
   */
  claim(slotId: string, job: string, slotMs: number, nowMs: number, missed = false): boolean {
    const result = this.#claim.run(slotId, job, slotMs, nowMs, Deno.pid, "running", missed ? 1 : 0);
    return Number(result.changes) === 1;
  }

  /**
   * Claims a slot for a run of `job`, refusing it while another run of the job is going
   * in any process (`live` says whether a `running` row's run still goes): checked and
   * written in one `BEGIN IMMEDIATE` transaction, so of two processes at once one runs.
   * `taken` when the slot was claimed before (a restart, a second hub); `busy` with the
   * run that goes.
   */
  claimRun(
    slotId: string,
    job: string,
    slotMs: number,
    nowMs: number,
    options: { missed?: boolean; live(row: RunRow & { pid: number }): boolean },
  ): { kind: "claimed" } | { kind: "taken" } | { kind: "busy"; row: RunRow } {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      let answer: { kind: "claimed" } | { kind: "taken" } | { kind: "busy"; row: RunRow };
      const running = (this.#db.prepare(
        "SELECT * FROM runs WHERE job = ? AND state = 'running' AND slot_id <> ?",
      ).all(job, slotId) as unknown as (StoredRow & { pid: number })[]).map((r) => ({
        ...toRunRow(r),
        pid: r.pid,
      }));
      const going = running.find((r) => options.live(r));
      if (this.#db.prepare("SELECT 1 FROM runs WHERE slot_id = ?").get(slotId) !== undefined) {
        answer = { kind: "taken" };
      } else if (going !== undefined) {
        answer = { kind: "busy", row: going };
      } else {
        this.#claim.run(slotId, job, slotMs, nowMs, Deno.pid, "running", options.missed ? 1 : 0);
        answer = { kind: "claimed" };
      }
      this.#db.exec("COMMIT");
      return answer;
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  /** Records a slot missed while no hub ran and skipped (once; `false` when known already). */
  missed(slotId: string, job: string, slotMs: number, nowMs: number): boolean {
    const result = this.#claim.run(slotId, job, slotMs, nowMs, Deno.pid, "missed", 1);
    if (Number(result.changes) === 1) {
      this.#db.prepare("UPDATE runs SET finished_ms = ? WHERE slot_id = ?").run(nowMs, slotId);
      this.onLogged?.(slotId);
    }
    return Number(result.changes) === 1;
  }

  /** The session a claimed slot's turn runs in, written before its first call. */
  started(slotId: string, sessionId: string): void {
    this.#db.prepare("UPDATE runs SET session_id = ? WHERE slot_id = ?").run(sessionId, slotId);
  }

  /**
   * How a claimed slot ended, and its answer's delivery (when it has one) in the same
   * transaction: a result in the log always has its delivery pending or done.
   */
  finish(
    slotId: string,
    end: {
      state: RunState;
      usd: number;
      nowMs: number;
      detail?: string | undefined;
      sessionId?: string | undefined;
    },
    delivery?: NewDelivery,
  ): void {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      this.#db.prepare(
        `UPDATE runs SET state = ?, usd = ?, finished_ms = ?, detail = ?,
         session_id = COALESCE(?, session_id) WHERE slot_id = ?`,
      ).run(end.state, end.usd, end.nowMs, end.detail ?? null, end.sessionId ?? null, slotId);
      if (delivery !== undefined) this.deliveries.add(slotId, delivery, end.nowMs);
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
    this.onLogged?.(slotId);
  }

  /**
   * The slots left `running` by processes that are gone (`alive` says false; our own
   * pid in the table is a former process's, as a container restarts with the same pid):
   * the caller settles each with {@linkcode settleInterrupted}. Call it before this
   * process runs any slot.
   */
  orphans(alive: (pid: number) => boolean | undefined): RunRow[] {
    const rows = this.#db.prepare("SELECT * FROM runs WHERE state = 'running'")
      .all() as unknown as (StoredRow & { pid: number })[];
    return rows.filter((r) => r.pid === Deno.pid || alive(r.pid) === false).map(toRunRow);
  }

  /**
   * This home's name among the hubs of one identity (`local-<random>`, made once and
   * kept): how the spine's shared slots tell this hub's claims from the other's.
   */
  hubId(): string {
    this.#db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('hub_id', ?)")
      .run(`local-${crypto.randomUUID().slice(0, 8)}`);
    const row = this.#db.prepare("SELECT value FROM meta WHERE key = 'hub_id'").get() as {
      value: string;
    };
    return row.value;
  }

  /** The row of slot `slotId`, if the log holds it. */
  row(slotId: string): RunRow | undefined {
    const r = this.#db.prepare("SELECT * FROM runs WHERE slot_id = ?").get(slotId) as
      | StoredRow
      | undefined;
    return r === undefined ? undefined : toRunRow(r);
  }

  /** Settles an orphaned slot as `interrupted` with what it cost; `false` when settled already. */
  settleInterrupted(slotId: string, usd: number, nowMs: number, detail: string): boolean {
    const r = this.#db.prepare(
      `UPDATE runs SET state = 'interrupted', usd = ?, finished_ms = ?, detail = ?
       WHERE slot_id = ? AND state = 'running'`,
    ).run(usd, nowMs, detail, slotId);
    if (Number(r.changes) === 1) this.onLogged?.(slotId);
    return Number(r.changes) === 1;
  }

  /** The newest slot recorded for `job`. */
  lastSlot(job: string): number | undefined {
    const row = this.#last.get(job) as { ms: number | null } | undefined;
    return row?.ms ?? undefined;
  }

  /** Since when `job` is watched: the first time any hub or `add` saw it. */
  since(job: string, nowMs: number): number {
    this.#seen.run(job, nowMs);
    const row = this.#since.get(job) as { since_ms: number };
    return row.since_ms;
  }

  /** What `job`'s runs cost since `sinceMs` (settled runs). */
  spentSince(job: string, sinceMs: number): number {
    const row = this.#db.prepare(
      "SELECT TOTAL(usd) AS usd FROM runs WHERE job = ? AND claimed_ms >= ?",
    ).get(job, sinceMs) as { usd: number };
    return row.usd;
  }

  /**
   * Forgets a claimed slot that did not run because the spine said its job is paused: a
   * paused job's slots leave no row, as when it is paused here.
   */
  unclaim(slotId: string): void {
    this.#db.prepare("DELETE FROM runs WHERE slot_id = ? AND state = 'running'").run(slotId);
  }

  /** The newest `limit` rows of the log (of `job`, when given), newest first. */
  log(job?: string, limit = 50): RunRow[] {
    const rows =
      (job === undefined
        ? this.#db.prepare("SELECT * FROM runs ORDER BY slot_ms DESC, claimed_ms DESC LIMIT ?")
          .all(limit)
        : this.#db.prepare(
          "SELECT * FROM runs WHERE job = ? ORDER BY slot_ms DESC, claimed_ms DESC LIMIT ?",
        ).all(job, limit)) as unknown as StoredRow[];
    return rows.map(toRunRow);
  }

  /**
   * Takes finished entries another store kept (the spine's job log, read by a brain in a
   * new container); an entry this log holds stays as it is. They count as this log's:
   * `agent jobs log` shows them and a slot they hold is not run again nor missed.
   */
  importRuns(rows: readonly RunRow[]): void {
    const put = this.#db.prepare(
      `INSERT OR IGNORE INTO runs (slot_id, job, slot_ms, claimed_ms, pid, state, missed, usd,
       finished_ms, detail, session_id) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`,
    );
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      for (const r of rows) {
        if (r.state === "running") continue;
        put.run(
          r.slot_id,
          r.job,
          r.slot_ms,
          r.claimed_ms,
          r.state,
          r.missed ? 1 : 0,
          r.usd,
          r.finished_ms,
          r.detail,
          r.session_id,
        );
      }
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  /** Forgets a removed job's watch and pause (its log stays). */
  forget(job: string): void {
    this.#db.prepare("DELETE FROM seen WHERE job = ?").run(job);
    this.pauses.forget(job);
  }

  /** Closes the connection. */
  close(): void {
    this.#db.close();
    if (this.#copy !== undefined) Deno.removeSync(this.#copy, { recursive: true });
  }
}

type StoredRow = Omit<RunRow, "missed"> & { missed: number };

function toRunRow(r: StoredRow): RunRow {
  return {
    slot_id: r.slot_id,
    job: r.job,
    slot_ms: r.slot_ms,
    claimed_ms: r.claimed_ms,
    state: r.state,
    missed: r.missed === 1,
    usd: r.usd,
    finished_ms: r.finished_ms,
    detail: r.detail,
    session_id: r.session_id,
  };
}
