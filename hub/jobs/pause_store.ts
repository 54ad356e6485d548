/**
 * Which jobs are paused, in the job store (`paused` in `<data>/jobs.sqlite3`; `*`
 * pauses them all), apart from the job log because a pause has a life of its own: with
 * a cloud spine the pauses are the spine's (`pauses.ts`), this table mirrors them and
 * keeps a pause the spine did not get (`unsent_pauses`) until it is sent, and when the
 * owner last resumed a job (in the store's `meta`) decides whether a new pause is news.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

/** A paused job (or `*`, every job). */
export interface PausedRow {
  job: string;
  /** `owner` (paused by hand) or the ceiling that paused it. */
  reason: string;
  ts: number;
}

/** The global pause's key in the paused table. */
export const ALL_JOBS = "*";

/** The tables, created with the job store's schema (which also makes `meta`). */
export const PAUSE_SCHEMA = `
CREATE TABLE IF NOT EXISTS paused (job TEXT PRIMARY KEY, reason TEXT NOT NULL, ts INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS unsent_pauses (job TEXT PRIMARY KEY);
`;

/** The pauses of one job store, on its connection (`JobStore.pauses`). */
export class PauseStore {
  #db: DatabaseSync;

  /** Wraps the job store's connection; its schema holds {@linkcode PAUSE_SCHEMA}. */
  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Pauses `job` (or every job with {@linkcode ALL_JOBS}); `false` when it was paused. */
  pause(job: string, reason: string, nowMs: number): boolean {
    const result = this.#db.prepare(
      "INSERT OR IGNORE INTO paused (job, reason, ts) VALUES (?, ?, ?)",
    ).run(job, reason, nowMs);
    return Number(result.changes) === 1;
  }

  /** Resumes `job` (or lifts the global pause); `false` when it was not paused. */
  resume(job: string): boolean {
    const result = this.#db.prepare("DELETE FROM paused WHERE job = ?").run(job);
    this.#db.prepare("DELETE FROM unsent_pauses WHERE job = ?").run(job);
    const resumed = Number(result.changes) === 1;
    if (resumed) this.#resumed(job);
    return resumed;
  }

  /** Resumes every job and lifts the global pause. */
  resumeAll(): void {
    this.#db.exec("DELETE FROM paused; DELETE FROM unsent_pauses");
    this.#resumed(ALL_JOBS);
  }

  /** Marks `job`'s pause (or `*`) as not yet on the spine: it is sent before the next claim. */
  markUnsent(job: string): void {
    this.#db.prepare("INSERT OR IGNORE INTO unsent_pauses (job) VALUES (?)").run(job);
  }

  /** Marks `job`'s pause as on the spine. */
  markSent(job: string): void {
    this.#db.prepare("DELETE FROM unsent_pauses WHERE job = ?").run(job);
  }

  /** The pauses the spine has not got yet (with their reason), by name. */
  unsent(): PausedRow[] {
    return this.#db.prepare(
      `SELECT p.job, p.reason, p.ts FROM unsent_pauses u JOIN paused p ON p.job = u.job`,
    ).all() as unknown as PausedRow[];
  }

  /**
   * Makes the paused table the spine's `pauses`, but for the pauses the spine has not got
   * yet (they stay): a job paused or resumed on the other hub is so here. A job resumed
   * this way counts as resumed here ({@linkcode resumedAt}). Returns what changed.
   */
  mirror(
    pauses: readonly PausedRow[],
    nowMs: number,
  ): { paused: string[]; resumed: string[] } {
    const changed = { paused: [] as string[], resumed: [] as string[] };
    const unsent = new Set(this.unsent().map((r) => r.job));
    const wanted = new Map(pauses.map((p) => [p.job, p]));
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      for (const [job] of this.all()) {
        if (wanted.has(job) || unsent.has(job)) continue;
        this.#db.prepare("DELETE FROM paused WHERE job = ?").run(job);
        this.#resumed(job);
        changed.resumed.push(job);
      }
      for (const p of wanted.values()) {
        if (this.pause(p.job, p.reason, p.ts || nowMs)) changed.paused.push(p.job);
      }
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
    return changed;
  }

  /**
   * When the owner last resumed `job` here (by name or all at once), epoch ms; 0 when
   * never: a pause after it is news to the owner even if the other hub told one that day.
   */
  resumedAt(job: string): number {
    const rows = this.#db.prepare(
      "SELECT value FROM meta WHERE key IN (?, ?)",
    ).all(`resumed:${job}`, `resumed:${ALL_JOBS}`) as { value: string }[];
    return Math.max(0, ...rows.map((r) => Number(r.value) || 0));
  }

  /** The paused jobs (and `*` when all are), by name. */
  all(): Map<string, PausedRow> {
    const rows = this.#db.prepare("SELECT job, reason, ts FROM paused")
      .all() as unknown as PausedRow[];
    return new Map(rows.map((r) => [r.job, { job: r.job, reason: r.reason, ts: r.ts }]));
  }

  /** Forgets a removed job's pause. */
  forget(job: string): void {
    this.#db.prepare("DELETE FROM paused WHERE job = ?").run(job);
    this.#db.prepare("DELETE FROM unsent_pauses WHERE job = ?").run(job);
  }

  #resumed(job: string): void {
    this.#db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
      .run(`resumed:${job}`, String(Date.now()));
  }
}
