/**
 * `POST /hub/jobs/pause`, `POST /hub/jobs/resume` and `GET /hub/jobs/pauses`: the pauses
 * both hubs on one identity share (table `job_pauses`). A pause is kept once per job
 * (`*`: every job), with the reason and hub of the first that asked; a resume deletes it
 * (`*` deletes every pause, as `agent jobs resume --all` resumes every job). The claim
 * (`jobs_slots.ts`) reads this table in the statement that writes the slot, so a hub
 * learns a pause or a resume at its next slot without a request of its own.
 *
 * @module
 */
import type { D1Database, D1PreparedStatement } from "@cloudflare/workers-types/index.ts";
import { json } from "@agent/net";
import { readObject } from "./body.ts";
import { type CloudRoutes, db } from "./stores.ts";

/** A shared pause, as `GET /hub/jobs/pauses` lists it. */
export interface JobPause {
  job: string;
  reason: string;
  hub: string;
  ts: number;
}

/** The most pauses listed (more jobs than this is not a personal agent). */
const LIST_MAX = 1_000;

/** Adds `/hub/jobs/pause|resume|pauses`. */
export function addJobPauseRoutes(
  routes: CloudRoutes,
  text: (body: Record<string, unknown>, key: string) => string,
): CloudRoutes {
  return routes
    .post("/hub/jobs/pause", async (request, { context }) => {
      const store = db(context.env);
      const body = await readObject(request);
      const result = await store.prepare(
        `INSERT INTO job_pauses (job, reason, hub, ts) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (job) DO NOTHING`,
      ).bind(text(body, "job"), text(body, "reason"), text(body, "hub"), Date.now()).run();
      return json({ paused: (result.meta.changes ?? 0) > 0 });
    })
    .post("/hub/jobs/resume", async (request, { context }) => {
      const store = db(context.env);
      const job = text(await readObject(request), "job");
      const result = job === "*"
        ? await store.prepare("DELETE FROM job_pauses").run()
        : await store.prepare("DELETE FROM job_pauses WHERE job = ?1").bind(job).run();
      return json({ resumed: (result.meta.changes ?? 0) > 0 });
    })
    .on("GET", "/hub/jobs/pauses", async (_request, { context }) => {
      const rows = await db(context.env).prepare(
        `SELECT job, reason, hub, ts FROM job_pauses ORDER BY job LIMIT ${LIST_MAX}`,
      ).all<JobPause>();
      return json({ pauses: rows.results });
    });
}

/** The statement that reads the pause holding `job`'s slots (the global one first), if any. */
export function pauseOf(db: D1Database, job: string): D1PreparedStatement {
  return db.prepare(
    `SELECT job, reason FROM job_pauses WHERE job IN (?1, '*')
     ORDER BY job = '*' DESC LIMIT 1`,
  ).bind(job);
}
