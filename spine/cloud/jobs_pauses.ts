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
import { json, methodNotAllowed } from "@agent/net";
import { readObject } from "./body.ts";

/** A shared pause, as `GET /hub/jobs/pauses` lists it. */
export interface JobPause {
  job: string;
  reason: string;
  hub: string;
  ts: number;
}

/** The most pauses listed (more jobs than this is not a personal agent). */
const LIST_MAX = 1_000;

/** `/hub/jobs/pause|resume|pauses`; `undefined` for another route. */
export async function handleJobPauses(
  request: Request,
  rest: string,
  db: D1Database,
  text: (body: Record<string, unknown>, key: string) => string,
): Promise<Response | undefined> {
  if (rest === "pause") {
    if (request.method !== "POST") methodNotAllowed(["POST"]);
    const body = await readObject(request);
    const result = await db.prepare(
      `INSERT INTO job_pauses (job, reason, hub, ts) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (job) DO NOTHING`,
    ).bind(text(body, "job"), text(body, "reason"), text(body, "hub"), Date.now()).run();
    return json({ paused: (result.meta.changes ?? 0) > 0 });
  }
  if (rest === "resume") {
    if (request.method !== "POST") methodNotAllowed(["POST"]);
    const job = text(await readObject(request), "job");
    const result = job === "*"
      ? await db.prepare("DELETE FROM job_pauses").run()
      : await db.prepare("DELETE FROM job_pauses WHERE job = ?1").bind(job).run();
    return json({ resumed: (result.meta.changes ?? 0) > 0 });
  }
  if (rest === "pauses") {
    if (request.method !== "GET") methodNotAllowed(["GET"]);
    const rows = await db.prepare(
      `SELECT job, reason, hub, ts FROM job_pauses ORDER BY job LIMIT ${LIST_MAX}`,
    ).all<JobPause>();
    return json({ pauses: rows.results });
  }
  return undefined;
}

/** The statement that reads the pause holding `job`'s slots (the global one first), if any. */
export function pauseOf(db: D1Database, job: string): D1PreparedStatement {
  return db.prepare(
    `SELECT job, reason FROM job_pauses WHERE job IN (?1, '*')
     ORDER BY job = '*' DESC LIMIT 1`,
  ).bind(job);
}
