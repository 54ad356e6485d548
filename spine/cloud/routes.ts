/**
 * The cloud-only routes of document 3 (`/hub/state`, `/hub/files`, `/hub/sessions`,
 * `/hub/brain`), the cloud ledger (`/hub/ledger`), the brain's memory (`/hub/memory`)
 * and the job slots (`/hub/jobs/…`),
 * reached after the bearer token is checked. In local mode every one answers 404
 * `cloud_mode_off` before any store is touched; in cloud mode without the store a
 * route needs, 503 `not_configured`.
 *
 * @module
 */
import type { D1Database, KVNamespace } from "@cloudflare/workers-types/index.ts";
import {
  errorMessage,
  HttpError,
  json,
  messengerWebhookSecret,
  methodNotAllowed,
} from "@agent/net";
import { type Env, spineMode } from "../env.ts";
import { BRAIN_WAIT_MS, brainFetch, withDeadline } from "./brain_link.ts";
import { handleFile, listFiles } from "./files.ts";
import { handleLedger } from "./ledger.ts";
import { handleMemory } from "./memory.ts";
import { handleSessions } from "./sessions.ts";
import { handleState } from "./state.ts";
import { handOver, pendingUpdates } from "./messenger_webhook.ts";
import { jobDue } from "./jobs_wake.ts";
import { handleJobSlots } from "./jobs_slots.ts";
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

function db(env: Env): D1Database {
  if (!env.DB) throw new HttpError(503, "not_configured");
  return env.DB;
}

function kv(env: Env): KVNamespace {
  if (!env.PEER_CARDS) throw new HttpError(503, "not_configured");
  return env.PEER_CARDS;
}

/** One cloud-only request (the bearer token already checked). */
export async function handleCloud(request: Request, url: URL, env: Env): Promise<Response> {
  requireCloudMode(env);
  const path = url.pathname;
  if (path === "/hub/brain") {
    if (request.method !== "GET") methodNotAllowed(["GET"]);
    return await brainHealth(env);
  }
  if (path.startsWith("/hub/state/")) {
    return await handleState(request, path.slice("/hub/state/".length), db(env));
  }
  if (path === "/hub/ledger") return await handleLedger(request, url, db(env));
  if (path === "/hub/memory") return await handleMemory(request, db(env));
  if (path.startsWith("/hub/jobs/")) {
    return await handleJobSlots(request, url, path.slice("/hub/jobs/".length), db(env));
  }
  if (path === "/hub/files") return await listFiles(request, kv(env));
  if (path.startsWith("/hub/files/")) {
    return await handleFile(request, path.slice("/hub/files/".length), kv(env));
  }
  if (path === "/hub/sessions" || path.startsWith("/hub/sessions/")) {
    return await handleSessions(request, url, path.slice("/hub/sessions".length), db(env));
  }
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
