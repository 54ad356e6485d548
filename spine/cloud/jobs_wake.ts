/**
 * Cloud mode's scheduled jobs: the brain keeps the time its next job is due in the
 * state document `jobs.next` (`{next_ms}`, epoch ms; `null` when it has no job). The
 * spine's cron, every minute, wakes a sleeping brain once that time is less than
 * {@linkcode JOB_WAKE_AHEAD_MS} away (or already past), so the job fires in the cloud
 * while the owner's laptop sleeps; the brain then stays awake for its sleep interval.
 *
 * @module
 */
import type { D1Database } from "@cloudflare/workers-types/index.ts";

/** The state key the brain writes its next due time to. */
export const JOBS_NEXT_KEY = "jobs.next";

/** How far ahead of a due job the brain is woken: a container start takes up to 90 s. */
export const JOB_WAKE_AHEAD_MS = 3 * 60_000;

/** Whether a job of the brain is due within {@linkcode JOB_WAKE_AHEAD_MS} of `nowMs`. */
export async function jobDue(db: D1Database, nowMs: number): Promise<boolean> {
  const row = await db.prepare("SELECT value FROM state WHERE key = ?1").bind(JOBS_NEXT_KEY)
    .first<{ value: string }>();
  if (row === null) return false;
  let next: unknown;
  try {
    next = (JSON.parse(row.value) as { next_ms?: unknown } | null)?.next_ms;
  } catch {
    return false;
  }
  return typeof next === "number" && Number.isFinite(next) && next - nowMs <= JOB_WAKE_AHEAD_MS;
}
