/**
 * The job answers on their way to the owner, in the job store (`deliveries` in
 * `<data>/jobs.sqlite3`): one row per answer and target (`events`, the owner-event
 * stream; `chat:<id>`, one messenger chat), written in the same transaction as the
 * run's result (see `JobStore.finish`), so an answer the log holds is never lost. A
 * row is `pending` until each of its parts was sent and marked (`parts_sent` counts
 * them, so a retry never sends a part again that was marked), `sent` after, and
 * `dropped` when a target refused it or 24 hours of failed sends passed.
 *
 * A send in flight holds a lease (`lease_pid`, `lease_ms`): two processes on one home
 * (the hub and `agent jobs run`) never send one part at once; a lease of a process that
 * died is void, and its part is sent again (it may have arrived: see `delivery.ts`).
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";

/** Where an answer goes: the event stream, or one messenger chat. */
export type DeliveryTarget = "events" | `chat:${string}`;

/** What became of a delivery. */
export type DeliveryState = "pending" | "sent" | "dropped";

/** One answer for one target. */
export interface DeliveryRow {
  slot_id: string;
  target: DeliveryTarget;
  job: string;
  /** The whole text told (the job's name, its cost and the answer). */
  text: string;
  usd: number;
  /** The job's `deliver` (`messenger` or `events`), as the `job.result` event says it. */
  deliver: "messenger" | "events";
  created_ms: number;
  state: DeliveryState;
  /** How many parts of a long text were sent and marked. */
  parts_sent: number;
  /** Failed sends so far. */
  attempts: number;
  /** Not tried again before this instant. */
  next_ms: number;
  /** A send may be in flight: the process that holds it, and since when. */
  lease_pid: number | null;
  lease_ms: number | null;
  last_error: string | null;
  done_ms: number | null;
}

/** A new answer: its text and where it goes. */
export interface NewDelivery {
  job: string;
  text: string;
  usd: number;
  deliver: "messenger" | "events";
  targets: DeliveryTarget[];
}

/** The table, created with the job store's schema. */
export const DELIVERY_SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (
  slot_id TEXT NOT NULL,
  target TEXT NOT NULL,
  job TEXT NOT NULL,
  text TEXT NOT NULL,
  usd REAL NOT NULL,
  deliver TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  state TEXT NOT NULL,
  parts_sent INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_ms INTEGER NOT NULL,
  lease_pid INTEGER,
  lease_ms INTEGER,
  last_error TEXT,
  done_ms INTEGER,
  PRIMARY KEY (slot_id, target)
);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (state, next_ms);
`;

/** A lease older than this is void even when its process lives (a send hung). */
export const LEASE_MS = 120_000;

/** How long a sent or dropped row is kept (for `agent jobs log` and a late look). */
const KEEP_MS = 7 * 86_400_000;

/** The deliveries of one job store (its connection). */
export class DeliveryStore {
  #db: DatabaseSync;
  #add: StatementSync;
  #due: StatementSync;
  #lease: StatementSync;
  #get: StatementSync;

  /** Over the job store's connection (the table exists). */
  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#add = db.prepare(
      `INSERT OR IGNORE INTO deliveries (slot_id, target, job, text, usd, deliver, created_ms,
       state, next_ms) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
    );
    this.#due = db.prepare(
      `SELECT * FROM deliveries WHERE state = 'pending' AND next_ms <= ?
       AND (lease_pid IS NULL OR lease_ms < ?) ORDER BY created_ms, target LIMIT 50`,
    );
    this.#lease = db.prepare(
      `UPDATE deliveries SET lease_pid = ?, lease_ms = ? WHERE slot_id = ? AND target = ?
       AND state = 'pending' AND (lease_pid IS NULL OR lease_ms < ?)`,
    );
    this.#get = db.prepare("SELECT * FROM deliveries WHERE slot_id = ? AND target = ?");
  }

  /** Writes `delivery` for slot `slotId` (inside the caller's transaction). */
  add(slotId: string, delivery: NewDelivery, nowMs: number): void {
    for (const target of delivery.targets) {
      this.#add.run(
        slotId,
        target,
        delivery.job,
        delivery.text,
        delivery.usd,
        delivery.deliver,
        nowMs,
        nowMs,
      );
    }
  }

  /** The pending rows due at `nowMs` whose send nobody holds, oldest first. */
  due(nowMs: number): DeliveryRow[] {
    return this.#due.all(nowMs, nowMs - LEASE_MS) as unknown as DeliveryRow[];
  }

  /** The earliest instant a pending row is due (`undefined`: none is pending). */
  nextDue(): number | undefined {
    const row = this.#db.prepare(
      "SELECT MIN(next_ms) AS ms FROM deliveries WHERE state = 'pending'",
    ).get() as { ms: number | null };
    return row.ms ?? undefined;
  }

  /** How many rows wait to be sent. */
  pendingCount(): number {
    const row = this.#db.prepare(
      "SELECT COUNT(*) AS n FROM deliveries WHERE state = 'pending'",
    ).get() as { n: number };
    return row.n;
  }

  /** One row. */
  get(slotId: string, target: DeliveryTarget): DeliveryRow | undefined {
    return this.#get.get(slotId, target) as unknown as DeliveryRow | undefined;
  }

  /**
   * Takes the send of a row for this process (`false`: another one holds it, or it is
   * no longer pending). A `row` read with a `lease_pid` had a holder before: a send of
   * its next part may have been in flight when that holder died.
   */
  lease(row: DeliveryRow, nowMs: number): boolean {
    const r = this.#lease.run(Deno.pid, nowMs, row.slot_id, row.target, nowMs - LEASE_MS);
    return Number(r.changes) === 1;
  }

  /** Voids the leases of processes that are gone (`alive` says false), and ours. */
  voidLeases(alive: (pid: number) => boolean | undefined): number {
    const held = this.#db.prepare(
      "SELECT DISTINCT lease_pid AS pid FROM deliveries WHERE state = 'pending' AND lease_pid IS NOT NULL",
    ).all() as { pid: number }[];
    let voided = 0;
    for (const { pid } of held) {
      // Our own pid in the table is a former process's (a container restarts as pid 1).
      if (pid !== Deno.pid && alive(pid) !== false) continue;
      const r = this.#db.prepare(
        "UPDATE deliveries SET lease_ms = 0 WHERE state = 'pending' AND lease_pid = ?",
      ).run(pid);
      voided += Number(r.changes);
    }
    return voided;
  }

  /** Marks one more part of a row sent; `done` marks the row sent. */
  partSent(row: DeliveryRow, parts: number, done: boolean, nowMs: number): void {
    this.#db.prepare(
      `UPDATE deliveries SET parts_sent = ?, state = ?, done_ms = ?, last_error = NULL,
       lease_pid = CASE WHEN ? THEN NULL ELSE lease_pid END,
       lease_ms = CASE WHEN ? THEN NULL ELSE ? END
       WHERE slot_id = ? AND target = ?`,
    ).run(
      parts,
      done ? "sent" : "pending",
      done ? nowMs : null,
      done ? 1 : 0,
      done ? 1 : 0,
      nowMs,
      row.slot_id,
      row.target,
    );
  }

  /** A failed send: tried again at `nextMs`, its lease given back. */
  failed(row: DeliveryRow, error: string, nextMs: number): void {
    this.#db.prepare(
      `UPDATE deliveries SET attempts = attempts + 1, last_error = ?, next_ms = ?,
       lease_pid = NULL, lease_ms = NULL WHERE slot_id = ? AND target = ?`,
    ).run(error, nextMs, row.slot_id, row.target);
  }

  /** Gives up on a row (refused, or 24 hours passed); `false` when it was not pending. */
  drop(row: DeliveryRow, error: string, nowMs: number): boolean {
    const r = this.#db.prepare(
      `UPDATE deliveries SET state = 'dropped', last_error = ?, done_ms = ?, lease_pid = NULL,
       lease_ms = NULL WHERE slot_id = ? AND target = ? AND state = 'pending'`,
    ).run(error, nowMs, row.slot_id, row.target);
    return Number(r.changes) === 1;
  }

  /** Every pending row, oldest first. */
  pendingRows(): DeliveryRow[] {
    return this.#db.prepare(
      "SELECT * FROM deliveries WHERE state = 'pending' ORDER BY created_ms, target",
    ).all() as unknown as DeliveryRow[];
  }

  /**
   * Takes rows another store kept (the spine's copy, read by a brain in a new container):
   * a row missing here is written as it is there, due at once at the latest; a row here
   * takes the parts and the end marked there when they are more (a part is never sent
   * twice because one copy had not heard of its mark).
   */
  importRows(rows: readonly Omit<DeliveryRow, "lease_pid" | "lease_ms">[], nowMs: number): void {
    const put = this.#db.prepare(
      `INSERT INTO deliveries (slot_id, target, job, text, usd, deliver, created_ms, state,
       parts_sent, attempts, next_ms, last_error, done_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (slot_id, target) DO UPDATE SET
         parts_sent = MAX(deliveries.parts_sent, excluded.parts_sent),
         attempts = MAX(deliveries.attempts, excluded.attempts),
         done_ms = COALESCE(deliveries.done_ms, excluded.done_ms),
         state = CASE WHEN deliveries.state = 'pending' THEN excluded.state
                      ELSE deliveries.state END`,
    );
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      for (const r of rows) {
        put.run(
          r.slot_id,
          r.target,
          r.job,
          r.text,
          r.usd,
          r.deliver,
          r.created_ms,
          r.state,
          r.parts_sent,
          r.attempts,
          Math.min(r.next_ms, nowMs),
          r.last_error,
          r.done_ms,
        );
      }
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  /** The rows of slot `slotId`. */
  of(slotId: string): DeliveryRow[] {
    return this.#db.prepare("SELECT * FROM deliveries WHERE slot_id = ? ORDER BY target")
      .all(slotId) as unknown as DeliveryRow[];
  }

  /** Forgets rows sent or dropped more than a week ago. */
  prune(nowMs: number): void {
    this.#db.prepare("DELETE FROM deliveries WHERE state != 'pending' AND done_ms < ?")
      .run(nowMs - KEEP_MS);
  }
}
