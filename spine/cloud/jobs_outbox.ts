/**
 * `POST|GET /hub/jobs/deliveries`, `POST|GET /hub/jobs/log` and `GET /hub/jobs/summary`
 * (each job's newest outcome and spend, for `agent jobs list --cloud`): the cloud brain's job
 * answers on their way to the owner and its job log, kept in the relational store
 * (tables `job_deliveries` and `job_log`, migration 0006) because the brain's own disk
 * goes with its container. The brain writes a delivery when its run ends and again as
 * each part is sent, a failure is tried again or the row is given up; a brain that
 * starts in an empty container reads the pending ones back and sends what they lack.
 *
 * A delivery write is idempotent by slot id, target and part: one `INSERT … ON CONFLICT
 * DO UPDATE` in which `parts_sent` only grows and a row that is `sent` or `dropped` stays
 * so, whatever order writes arrive in (a retried request, a write of a former brain that
 * arrives late). A log write keeps one row per slot; the newest write wins, but a
 * finished row never goes back to `running`.
 *
 * {@linkcode deliveryDue} tells the cron whether a pending answer's next try is due, so
 * the spine wakes a sleeping brain for it (an answer does not wait for the next job).
 *
 * @module
 */
import type { D1Database } from "@cloudflare/workers-types/index.ts";
import { HttpError, json } from "@agent/net";
import { readObject } from "./body.ts";
import { type CloudRoutes, db as store } from "./stores.ts";

/** The most rows one write carries or one read answers. */
const ROWS_MAX = 500;
const ID_MAX = 300;
/** An answer's text at most (a body is 1 MiB; a long answer is a few messages). */
const TEXT_MAX = 256 * 1024;
const STATES = new Set(["pending", "sent", "dropped"]);
/** How long a sent or dropped answer is kept (as the brain's own store keeps it). */
const DELIVERY_KEEP_MS = 7 * 86_400_000;
/** How long a log entry is kept. */
const LOG_KEEP_MS = 90 * 86_400_000;

function bad(detail: string): never {
  throw new HttpError(400, "bad_request", { detail });
}

function str(row: Record<string, unknown>, key: string, max = ID_MAX): string {
  const v = row[key];
  if (typeof v !== "string" || v === "" || v.length > max) {
    bad(`'${key}' must be a string of 1 to ${max} characters`);
  }
  return v;
}

function optStr(row: Record<string, unknown>, key: string, max: number): string | null {
  const v = row[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || v.length > max) bad(`'${key}' must be null or a string`);
  return v;
}

function num(row: Record<string, unknown>, key: string, whole: boolean): number {
  const v = row[key];
  if (
    typeof v !== "number" || !Number.isFinite(v) || v < 0 || (whole && !Number.isSafeInteger(v))
  ) {
    bad(`'${key}' must be ${whole ? "a whole number" : "a number"} of 0 or more`);
  }
  return v;
}

function optWhole(row: Record<string, unknown>, key: string): number | null {
  return row[key] === undefined || row[key] === null ? null : num(row, key, true);
}

function rowsOf(body: Record<string, unknown>): Record<string, unknown>[] {
  const rows = body.rows;
  if (!Array.isArray(rows) || rows.length > ROWS_MAX) {
    bad(`'rows' must be a list of at most ${ROWS_MAX} rows`);
  }
  return rows.map((r) => {
    if (r === null || typeof r !== "object" || Array.isArray(r)) bad("each row must be an object");
    return r as Record<string, unknown>;
  });
}

/** Adds `/hub/jobs/deliveries`, `/hub/jobs/summary` and `/hub/jobs/log`. */
export function addJobOutboxRoutes(routes: CloudRoutes): CloudRoutes {
  return routes
    .on("GET", "/hub/jobs/deliveries", async (_request, { context }) => {
      const db = store(context.env);
      const rows = await db.prepare(
        `SELECT slot_id, target, job, text, usd, deliver, created_ms, state, parts_sent,
         attempts, next_ms, last_error, done_ms FROM job_deliveries WHERE state = 'pending'
         ORDER BY created_ms, target LIMIT ${ROWS_MAX}`,
      ).all();
      return json({ deliveries: rows.results });
    })
    .post("/hub/jobs/deliveries", async (request, { context }) => {
      const db = store(context.env);
      const rows = rowsOf(await readObject(request));
      const statements = rows.map((r) => {
        const state = str(r, "state");
        if (!STATES.has(state)) bad("'state' must be pending, sent or dropped");
        const target = str(r, "target");
        if (target !== "events" && !target.startsWith("chat:")) {
          bad("'target' must be events or chat:ID");
        }
        const deliver = str(r, "deliver");
        if (deliver !== "messenger" && deliver !== "events") {
          bad("'deliver' must be messenger or events");
        }
        return db.prepare(
          `INSERT INTO job_deliveries (slot_id, target, job, text, usd, deliver, created_ms, state,
         parts_sent, attempts, next_ms, last_error, done_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
         ON CONFLICT (slot_id, target) DO UPDATE SET
           parts_sent = MAX(job_deliveries.parts_sent, excluded.parts_sent),
           attempts = MAX(job_deliveries.attempts, excluded.attempts),
           next_ms = CASE WHEN job_deliveries.state = 'pending' THEN excluded.next_ms
                          ELSE job_deliveries.next_ms END,
           last_error = COALESCE(excluded.last_error, job_deliveries.last_error),
           done_ms = COALESCE(job_deliveries.done_ms, excluded.done_ms),
           state = CASE WHEN job_deliveries.state = 'pending' THEN excluded.state
                        ELSE job_deliveries.state END`,
        ).bind(
          str(r, "slot_id"),
          target,
          str(r, "job"),
          str(r, "text", TEXT_MAX),
          num(r, "usd", false),
          deliver,
          num(r, "created_ms", true),
          state,
          num(r, "parts_sent", true),
          num(r, "attempts", true),
          num(r, "next_ms", true),
          optStr(r, "last_error", 2_000),
          optWhole(r, "done_ms"),
        );
      });
      // Answers sent or given up a week ago are of no more use to a new brain.
      statements.push(
        db.prepare("DELETE FROM job_deliveries WHERE state != 'pending' AND done_ms < ?1")
          .bind(Date.now() - DELIVERY_KEEP_MS),
      );
      await db.batch(statements);
      return json({ stored: statements.length - 1 });
    })
    .on("GET", "/hub/jobs/summary", async (_request, { url, context }) => {
      const db = store(context.env);
      const day = Number(url.searchParams.get("day"));
      const since = Number(url.searchParams.get("since"));
      if (!Number.isSafeInteger(day) || !Number.isSafeInteger(since) || day < 0 || since < 0) {
        bad("'day' and 'since' must be whole numbers of 0 or more");
      }
      // Per job: its newest entry, and what its runs cost since `day` and since `since`.
      const rows = await db.prepare(
        `SELECT j.job AS job, j.state AS last_state, j.slot_ms AS last_ms,
         (SELECT TOTAL(usd) FROM job_log WHERE job = j.job AND claimed_ms >= ?1) AS today_usd,
         (SELECT TOTAL(usd) FROM job_log WHERE job = j.job AND claimed_ms >= ?2) AS period_usd
       FROM job_log j WHERE j.slot_id = (SELECT slot_id FROM job_log WHERE job = j.job
         ORDER BY slot_ms DESC, claimed_ms DESC LIMIT 1)
       ORDER BY j.job LIMIT ${ROWS_MAX}`,
      ).bind(day, since).all();
      return json({ jobs: rows.results });
    })
    .on("GET", "/hub/jobs/log", async (_request, { url, context }) => {
      const db = store(context.env);
      const job = url.searchParams.get("job");
      const limit = Math.min(ROWS_MAX, Math.max(1, Number(url.searchParams.get("limit")) || 50));
      const sql = `SELECT slot_id, job, slot_ms, claimed_ms, state, missed, usd, finished_ms,
        detail, session_id FROM job_log ${job ? "WHERE job = ?1" : ""}
        ORDER BY slot_ms DESC, claimed_ms DESC LIMIT ${limit}`;
      const rows = job ? await db.prepare(sql).bind(job).all() : await db.prepare(sql).all();
      return json({ runs: rows.results });
    })
    .post("/hub/jobs/log", async (request, { context }) => {
      const db = store(context.env);
      const rows = rowsOf(await readObject(request));
      const statements = rows.map((r) =>
        db.prepare(
          `INSERT INTO job_log (slot_id, job, slot_ms, claimed_ms, state, missed, usd, finished_ms,
         detail, session_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
         ON CONFLICT (slot_id) DO UPDATE SET state = excluded.state, usd = excluded.usd,
           finished_ms = excluded.finished_ms, detail = excluded.detail,
           session_id = COALESCE(excluded.session_id, job_log.session_id)
         WHERE job_log.state = 'running' OR excluded.state != 'running'`,
        ).bind(
          str(r, "slot_id"),
          str(r, "job"),
          num(r, "slot_ms", true),
          num(r, "claimed_ms", true),
          str(r, "state", 20),
          r.missed === true ? 1 : 0,
          num(r, "usd", false),
          optWhole(r, "finished_ms"),
          optStr(r, "detail", 4_000),
          optStr(r, "session_id", ID_MAX),
        )
      );
      // The log keeps 90 days, as far back as anyone looks for a job's runs and spend.
      statements.push(
        db.prepare("DELETE FROM job_log WHERE slot_ms < ?1").bind(Date.now() - LOG_KEEP_MS),
      );
      await db.batch(statements);
      return json({ stored: statements.length - 1 });
    });
}

/** Whether a pending answer's next try is due by `nowMs` (the cron then wakes the brain). */
export async function deliveryDue(db: D1Database, nowMs: number): Promise<boolean> {
  const row = await db.prepare(
    "SELECT 1 AS due FROM job_deliveries WHERE state = 'pending' AND next_ms <= ?1 LIMIT 1",
  ).bind(nowMs).first<{ due: number }>();
  return row !== null;
}
