/**
 * `POST /messenger/webhook` (cloud mode): the Bot API's webhook ends at the spine, not
 * at the container, so a sleeping brain loses no message. Telegram's secret-token
 * header is checked in constant time against the secret derived from `HUB_TOKEN`; the
 * update is stored in the relational store before the 200, then handed to the brain
 * (woken when needed). An update the brain did not take stays stored and the cron hands
 * it over again.
 *
 * @module
 */
import type { D1Database } from "@cloudflare/workers-types/index.ts";
import {
  errorMessage,
  HttpError,
  json,
  messengerWebhookSecret,
  parseJsonBody,
  readRequestBody,
  timingSafeEqual,
} from "@agent/net";
import type { Env } from "../env.ts";
import { type BrainFetch, brainFetch } from "./brain_link.ts";
import { CLOUD_BODY_MAX_BYTES } from "./body.ts";

/** The route Telegram posts to. */
export const MESSENGER_WEBHOOK_PATH = "/messenger/webhook";

/** The header Telegram sends the secret in. */
export const SECRET_HEADER = "x-telegram-bot-api-secret-token";

/** Updates handed over per run at most. */
const HAND_OVER_BATCH = 50;

/**
 * Takes one update (a `POST`: the spine's route table takes no other); the caller keeps
 * `handOver` alive with `waitUntil`.
 */
export async function takeUpdate(
  request: Request,
  env: Env,
): Promise<{ response: Response; handOver?: Promise<unknown> }> {
  if (!env.HUB_TOKEN || !env.DB) {
    await request.body?.cancel();
    throw new HttpError(503, "not_configured");
  }
  const expected = await messengerWebhookSecret(env.HUB_TOKEN);
  if (!timingSafeEqual(request.headers.get(SECRET_HEADER) ?? "", expected)) {
    await request.body?.cancel();
    throw new HttpError(401, "unauthorized");
  }
  const update = parseJsonBody(await readRequestBody(request, CLOUD_BODY_MAX_BYTES)) as
    | { update_id?: unknown }
    | null;
  const id = update?.update_id;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) {
    throw new HttpError(400, "bad_request", { detail: "an update needs an integer update_id" });
  }
  // Telegram resends an update it got no 200 for: the same id is stored once.
  await env.DB.prepare(
    "INSERT OR IGNORE INTO messenger_updates (update_id, data, received_at) VALUES (?1, ?2, ?3)",
  ).bind(id, JSON.stringify(update), Math.floor(Date.now() / 1000)).run();
  const brain = brainFetch(env);
  return {
    response: json({ ok: true }),
    ...(brain ? { handOver: handOver(env.DB, brain, expected) } : {}),
  };
}

/**
 * Hands the stored updates to the brain in order, deleting each one it took; stops at
 * the first it did not take. Never throws: what stays is handed over by the next run.
 */
export async function handOver(
  db: D1Database,
  brain: BrainFetch,
  secret: string,
  log: (line: string) => void = console.warn,
): Promise<number> {
  let handed = 0;
  try {
    const { results } = await db.prepare(
      "SELECT update_id, data FROM messenger_updates ORDER BY update_id LIMIT ?1",
    ).bind(HAND_OVER_BATCH).all<{ update_id: number; data: string }>();
    for (const row of results) {
      const res = await brain(MESSENGER_WEBHOOK_PATH, {
        method: "POST",
        headers: { "content-type": "application/json", [SECRET_HEADER]: secret },
        body: row.data,
      });
      await res.body?.cancel();
      if (!res.ok) {
        log(`messenger_handover_failed: brain answered HTTP ${res.status}`);
        break;
      }
      await db.prepare("DELETE FROM messenger_updates WHERE update_id = ?1").bind(row.update_id)
        .run();
      handed++;
    }
  } catch (error) {
    log(`messenger_handover_failed: ${errorMessage(error)}`);
  }
  return handed;
}

/** The updates still waiting for the brain. */
export async function pendingUpdates(db: D1Database): Promise<number> {
  const row = await db.prepare("SELECT COUNT(*) AS n FROM messenger_updates").first<
    { n: number }
  >();
  return row?.n ?? 0;
}
