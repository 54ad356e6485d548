/**
 * `POST /hub/jobs/claim`, `POST /hub/jobs/settle`, `GET /hub/jobs/running` and
 * `POST /hub/jobs/notice`: the job slots both hubs on one identity share (the local hub
 * and the cloud brain), in the relational store (`DB`, tables `job_slots` and
 * `job_notices`); their shared pauses (`job_pauses`) are in `jobs_pauses.ts`, the
 * brain's answers and job log (`job_deliveries`, `job_log`) in `jobs_outbox.ts`.
 *
 * A claim is one `INSERT … SELECT … WHERE` statement, so it is atomic however many hubs
 * ask at once: it writes the slot only when no hub holds it, when neither the job nor
 * every job (`*`) is paused (answered `paused`, with the pause's job and reason) and, for
 * a job with a daily ceiling, only when what the job's day holds (settled runs at their
 * cost, runs in progress at their reservation) leaves at least `min_usd`; it then reserves the run's
 * ceiling, the smaller of `max_run_usd` and what is left. A settle replaces the
 * reservation by the run's cost. A claim asked again by the run that holds the slot
 * (the same hub and session: its answer was lost) is answered as claimed again; any
 * other claim of a held slot (the other hub, or a new process of the same hub, such as
 * a restarted container) is answered `taken`.
 *
 * A notice (a hub paused a job at a ceiling) is told by the first hub that asks for its
 * job, day and reason (`{tell: true}`); the others are answered `{tell: false}`, unless
 * their job was resumed (`since_ms`) after the notice was told: the owner acted since,
 * and a new pause is news. One `INSERT … ON CONFLICT DO UPDATE … WHERE` statement, so two
 * hubs asking at once are never both told to tell.
 *
 * @module
 */
import type { D1Database } from "@cloudflare/workers-types/index.ts";
import { HttpError, json } from "@agent/net";
import { field, readObject } from "./body.ts";
import { addJobPauseRoutes, pauseOf } from "./jobs_pauses.ts";
import { addJobOutboxRoutes } from "./jobs_outbox.ts";
import { type CloudRoutes, db } from "./stores.ts";

const ID_MAX = 200;

function bad(detail: string): never {
  throw new HttpError(400, "bad_request", { detail });
}

function text(body: Record<string, unknown>, key: string): string {
  const value = field(body, key);
  if (typeof value !== "string" || value === "" || value.length > ID_MAX) {
    bad(`'${key}' must be a string of 1 to ${ID_MAX} characters`);
  }
  return value;
}

function usd(body: Record<string, unknown>, key: string, nullable: boolean): number | null {
  const value = field(body, key);
  if (nullable && value === null) return null;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    bad(`'${key}' must be ${nullable ? "null or " : ""}a number of 0 or more`);
  }
  return value;
}

function whole(body: Record<string, unknown>, key: string): number {
  const value = field(body, key);
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    bad(`'${key}' must be a whole number of 0 or more`);
  }
  return value;
}

/**
 * Adds `/hub/jobs/claim|settle|notice|running`, then the pauses' and the outbox's routes
 * (the bearer token and cloud mode already checked).
 */
export function addJobRoutes(routes: CloudRoutes): CloudRoutes {
  routes
    .post("/hub/jobs/claim", async (request, { context }) => {
      const store = db(context.env);
      return json(await claim(await readObject(request), store));
    })
    .post("/hub/jobs/settle", async (request, { context }) => {
      const store = db(context.env);
      const body = await readObject(request);
      const result = await store.prepare(
        `UPDATE job_slots SET state = 'settled', usd = ?1, settled_at = ?2
         WHERE slot_id = ?3 AND hub = ?4 AND state = 'running'`,
      ).bind(usd(body, "usd", false), Date.now(), text(body, "slot_id"), text(body, "hub")).run();
      return json({ settled: (result.meta.changes ?? 0) > 0 });
    })
    .post("/hub/jobs/notice", async (request, { context }) => {
      const store = db(context.env);
      return json(await notice(await readObject(request), store));
    })
    .on("GET", "/hub/jobs/running", async (_request, { url, context }) => {
      const store = db(context.env);
      const hub = url.searchParams.get("hub") ?? "";
      if (hub === "" || hub.length > ID_MAX) {
        bad(`'hub' must be a string of 1 to ${ID_MAX} characters`);
      }
      const rows = await store.prepare(
        `SELECT slot_id, job, day_ms, reserved_usd, session_id, claimed_at FROM job_slots
         WHERE hub = ?1 AND state = 'running' ORDER BY claimed_at LIMIT 500`,
      ).bind(hub).all();
      return json({ slots: rows.results });
    });
  addJobPauseRoutes(routes, text);
  return addJobOutboxRoutes(routes);
}

/** What a claim answers. */
type ClaimAnswer =
  | { claimed: true; reserved_usd: number }
  | { claimed: false; reason: "taken" }
  | { claimed: false; reason: "paused"; job: string; by: string }
  | { claimed: false; reason: "day"; spent_usd: number };

async function claim(body: Record<string, unknown>, db: D1Database): Promise<ClaimAnswer> {
  const slot = text(body, "slot_id");
  const job = text(body, "job");
  const hub = text(body, "hub");
  const day = whole(body, "day_ms");
  const maxRun = usd(body, "max_run_usd", true);
  const cap = usd(body, "day_cap_usd", true);
  const min = usd(body, "min_usd", false)!;
  const sessionId = body.session_id === undefined ? null : text(body, "session_id");
  // One statement: the day's total and the pauses read and the slot written under one
  // write lock; the pause that refused it read in the same batch (one transaction), so a
  // resume in between cannot make a paused slot look like a spent day.
  const [inserted, paused] = await db.batch([
    db.prepare(
      `INSERT INTO job_slots (slot_id, job, day_ms, hub, state, reserved_usd, session_id, claimed_at)
       SELECT ?1, ?2, ?3, ?4, 'running',
         CASE WHEN ?6 IS NULL THEN COALESCE(?5, 0)
              WHEN ?5 IS NULL THEN ?6 - t.used
              ELSE MIN(?5, ?6 - t.used) END,
         ?8, ?9
       FROM (SELECT TOTAL(CASE WHEN state = 'running' THEN reserved_usd ELSE usd END) AS used
             FROM job_slots WHERE job = ?2 AND day_ms = ?3) AS t
       WHERE (?6 IS NULL OR (?6 - t.used >= ?7 AND ?6 - t.used > 0))
         AND NOT EXISTS (SELECT 1 FROM job_pauses WHERE job IN (?2, '*'))
       ON CONFLICT (slot_id) DO NOTHING`,
    ).bind(slot, job, day, hub, maxRun, cap, min, sessionId, Date.now()),
    pauseOf(db, job),
  ]);
  const row = await db.prepare(
    "SELECT hub, state, reserved_usd, session_id FROM job_slots WHERE slot_id = ?1",
  ).bind(slot).first<
    { hub: string; state: string; reserved_usd: number; session_id: string | null }
  >();
  if (row !== null) {
    const again = row.hub === hub && row.state === "running" && sessionId !== null &&
      row.session_id === sessionId;
    const ours = (inserted!.meta.changes ?? 0) > 0 || again;
    return ours
      ? { claimed: true, reserved_usd: row.reserved_usd }
      : { claimed: false, reason: "taken" };
  }
  const [pause] = (paused?.results ?? []) as { job: string; reason: string }[];
  if (pause !== undefined) {
    return { claimed: false, reason: "paused", job: pause.job, by: pause.reason };
  }
  const spent = await db.prepare(
    `SELECT TOTAL(CASE WHEN state = 'running' THEN reserved_usd ELSE usd END) AS used
     FROM job_slots WHERE job = ?1 AND day_ms = ?2`,
  ).bind(job, day).first<{ used: number }>();
  return { claimed: false, reason: "day", spent_usd: spent?.used ?? 0 };
}

/** Whether the asking hub tells the owner of a pause (the first for its job, day and reason). */
async function notice(body: Record<string, unknown>, db: D1Database): Promise<{ tell: boolean }> {
  const job = text(body, "job");
  const day = whole(body, "day_ms");
  const reason = text(body, "reason");
  const hub = text(body, "hub");
  const since = whole(body, "since_ms");
  const result = await db.prepare(
    `INSERT INTO job_notices (job, day_ms, reason, hub, told_at) VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT (job, day_ms, reason) DO UPDATE SET hub = excluded.hub, told_at = excluded.told_at
     WHERE job_notices.told_at < ?6`,
  ).bind(job, day, reason, hub, Date.now(), since).run();
  return { tell: (result.meta.changes ?? 0) > 0 };
}
