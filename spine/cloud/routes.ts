/**
 * The cloud-only routes of document 3 (`/hub/state`, `/hub/files`, `/hub/sessions`,
 * `/hub/brain`), the cloud ledger (`/hub/ledger`), the cloud brain's memory
 * (`/hub/memory`) and the job slots (`/hub/jobs/…`),
 * reached after the bearer token is checked. In local mode every one answers 404
 * `cloud_mode_off` before any store is touched; in cloud mode without the store a
 * route needs, 503 `not_configured`.
 *
 * @module
 */
import { errorMessage, HttpError, json, messengerWebhookSecret, Router } from "@agent/net";
import { type Env, spineMode } from "../env.ts";
import { BRAIN_WAIT_MS, brainFetch, withDeadline } from "./brain_link.ts";
import { addFileRoutes } from "./files.ts";
import { addLedgerRoutes } from "./ledger.ts";
import { addMemoryRoutes } from "./memory.ts";
import { addSessionRoutes } from "./sessions.ts";
import { addStateRoutes } from "./state.ts";
import type { CloudCall, CloudRoutes } from "./stores.ts";
import { handOver, pendingUpdates } from "./messenger_webhook.ts";
import { jobDue } from "./jobs_wake.ts";
import { addJobRoutes } from "./jobs_slots.ts";
import { deliveryDue } from "./jobs_outbox.ts";

/** Whether `path` is one of the cloud-only routes. */
export function isCloudOnlyPath(path: string): boolean {
  return path === "/hub/brain" ||
    path === "/hub/state" || path.startsWith("/hub/state/") ||
    path === "/hub/files" || path.startsWith("/hub/files/") ||
    path === "/hub/sessions" || path.startsWith("/hub/sessions/") ||
    path === "/hub/ledger" || path === "/hub/memory" || path.startsWith("/hub/jobs/");
}

/** Throws 404 `cloud_mode_off` unless the spine runs in cloud mode. */
export function requireCloudMode(env: Env): void {
  if (spineMode(env) !== "cloud") throw new HttpError(404, "cloud_mode_off");
}

/** Every cloud-only route, in one table. */
const CLOUD_ROUTES: CloudRoutes = [
  addStateRoutes,
  addFileRoutes,
  addLedgerRoutes,
  addMemoryRoutes,
  addSessionRoutes,
  addJobRoutes,
].reduce(
  (routes, add) => add(routes),
  new Router<CloudCall>().on(
    "GET",
    "/hub/brain",
    (_request, { context }) => brainHealth(context.env),
  ),
);

/** One cloud-only request (the bearer token already checked). */
export async function handleCloud(request: Request, url: URL, env: Env): Promise<Response> {
  // Local mode answers every cloud path the same, whatever the method.
  requireCloudMode(env);
  const answer = await CLOUD_ROUTES.handle(request, { env }, { url });
  if (answer !== undefined) return answer;
  await request.body?.cancel();
  throw new HttpError(404, "not_found");
}

/** `GET /hub/brain`: the brain's `/health` JSON, starting it when needed (90 s at most). */
async function brainHealth(env: Env): Promise<Response> {
  const brain = brainFetch(env);
  if (brain === undefined) throw new HttpError(503, "brain_unavailable");
  try {
    const res = await withDeadline(brain("/health"), BRAIN_WAIT_MS);
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`HTTP ${res.status}`);
    }
    return json(await res.json());
  } catch (error) {
    console.warn(`brain_unavailable: ${errorMessage(error)}`);
    throw new HttpError(503, "brain_unavailable");
  }
}

/**
 * The cloud part of the per-minute cron: with `KEEP_AWAKE=1`, when one of the
 * brain's jobs is due within three minutes (`jobs.next`, see `jobs_wake.ts`), or when
 * a job answer waits in `job_deliveries` whose next try is due (`jobs_outbox.ts`), the
 * brain's `/health` is pinged (waking it; it sends the answer when it starts), and messenger updates it has not taken yet
 * are handed over (waking it).
 */
export async function cloudCron(env: Env, scheduledTime?: number): Promise<void> {
  if (spineMode(env) !== "cloud") return;
  const brain = brainFetch(env);
  if (brain === undefined) return;
  // A job due soon wakes a sleeping brain, as KEEP_AWAKE does every minute.
  const now = scheduledTime ?? Date.now();
  const jobSoon = env.DB !== undefined &&
    ((await jobDue(env.DB, now)) || (await deliveryDue(env.DB, now)));
  if (env.KEEP_AWAKE?.trim() === "1" || jobSoon) {
    try {
      const res = await withDeadline(brain("/health"), BRAIN_WAIT_MS);
      await res.body?.cancel();
    } catch (error) {
      console.warn(`brain_keep_awake_failed: ${errorMessage(error)}`);
    }
  }
  if (env.DB && env.HUB_TOKEN && (await pendingUpdates(env.DB)) > 0) {
    await handOver(env.DB, brain, await messengerWebhookSecret(env.HUB_TOKEN));
  }
}
