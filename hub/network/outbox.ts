/**
 * The outbox: a reply (and every `agent net send`, and the notice that the owner
 * removed a contact) is written into the network store with its id before it is
 * posted, so it is never lost and never written twice.
 *
 * - Delivery is retried with backoff while the peer's spine is unreachable or answers
 *   5xx or 429, for at most 24 hours; then the envelope is dropped with a log line and,
 *   for a message, an owner event (a removal notice given up on is only logged).
 * - A hard refusal (another 4xx) ends it at once, and the sender hears of it.
 * - A delivered reply stays a day as `sent`: a message handled again after a crash finds
 *   its reply there and sends it (or nothing) instead of asking the model again.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import { fileEventSink, type OwnerEventSink } from "../events/mod.ts";
import type { Logger } from "../log.ts";
import type { AgentPaths } from "../paths.ts";
import type { NetState } from "./store/state.ts";
import { backoffDelay } from "../backoff.ts";
import { SpineError } from "./spine_client.ts";
import type { OutboxEntry, OutboxKind } from "./store/state.ts";

/** What the outbox needs of a node (the `NetNode` has it; named here to keep one way down). */
export interface OutboxNode {
  readonly state: NetState;
  readonly logger: Logger;
  readonly paths: AgentPaths;
  /** Where a dropped message is told to the owner. @default the events file */
  readonly events?: OwnerEventSink;
  nowSec(): number;
  deliver(
    kind: OutboxKind,
    to: { address: string; box_key: string },
    plaintext: object,
    options: { id?: string; thread?: string; reply_to?: string | null; hops?: number },
  ): Promise<{ delivery: "queued" | "duplicate" }>;
  logOut(
    address: string,
    kind: OutboxKind,
    id: string,
    thread: string,
    text: string,
    subs?: { own_sub?: string; peer_sub?: string },
  ): Promise<void>;
}

/** How long an envelope is retried (seconds). */
export const OUTBOX_RETRY_SECONDS = 24 * 3_600;

/** How long a delivered entry is kept for a re-handled message (seconds). */
export const OUTBOX_SENT_KEEP_SECONDS = 24 * 3_600;

/** The first retry waits this long; the wait doubles up to the cap (ms). */
const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 30 * 60_000;

/** What became of one attempt. */
export type OutboxResult = "queued" | "duplicate" | "pending";

/** Whether a failed post is worth trying again: no answer, a 5xx, or a 429. */
export function isTransient(error: unknown): boolean {
  return error instanceof SpineError && error.transient;
}

/** The entry answering envelope `id` from `from`, if the outbox holds one. */
export async function replyFor(
  node: OutboxNode,
  from: string,
  id: string,
): Promise<OutboxEntry | undefined> {
  return (await node.state.outbox()).find((e) => e.answers === id && e.to === from);
}

/**
 * Writes `entry` into the outbox (unless it is there already) and posts it once.
 * Returns `pending` when the post failed for a reason worth retrying.
 *
 * @throws {SpineError} a hard refusal (4xx other than 429): the entry is removed.
 */
export async function sendThroughOutbox(
  node: OutboxNode,
  entry: Omit<OutboxEntry, "created_at" | "attempts" | "next_at" | "state">,
  options: SendOptions = {},
): Promise<OutboxResult> {
  const stored = await enqueue(node, entry);
  if (stored.state === "sent") return "duplicate";
  return await attempt(node, stored, options.onPending);
}

/** Options for {@linkcode sendThroughOutbox}. */
export interface SendOptions {
  /**
   * Told why a post is left for a retry (the peer's `SpineError`: no answer, a 5xx, a
   * 429 with its `Retry-After`) and when the outbox tries again (Unix seconds).
   */
  onPending?: (error: unknown, nextAt: number) => void;
}

/**
 * Writes `entry` into the outbox unless an entry with its id is there; returns the
 * stored one. A reply is written down this way the moment the model has answered.
 */
export async function enqueue(
  node: Pick<OutboxNode, "state" | "nowSec">,
  entry: Omit<OutboxEntry, "created_at" | "attempts" | "next_at" | "state">,
): Promise<OutboxEntry> {
  const now = node.nowSec();
  await node.state.updateOutbox((entries) => {
    if (!entries.some((e) => e.id === entry.id)) {
      entries.push({ ...entry, created_at: now, attempts: 0, next_at: now, state: "pending" });
    }
  });
  return (await node.state.outbox()).find((e) => e.id === entry.id)!;
}

/** One post of a pending entry; the outbox is updated with what happened. */
async function attempt(
  node: OutboxNode,
  entry: OutboxEntry,
  onPending?: SendOptions["onPending"],
): Promise<OutboxResult> {
  let delivery: "queued" | "duplicate";
  try {
    ({ delivery } = await node.deliver(
      entry.kind,
      { address: entry.to, box_key: entry.box_key },
      entry.plaintext,
      { id: entry.id, thread: entry.thread, reply_to: entry.reply_to, hops: entry.hops },
    ));
  } catch (error) {
    if (!isTransient(error)) {
      await node.state.updateOutbox((entries) => {
        const i = entries.findIndex((e) => e.id === entry.id);
        if (i >= 0) entries.splice(i, 1);
      });
      throw error;
    }
    const now = node.nowSec();
    await node.state.updateOutbox((entries) => {
      const e = entries.find((x) => x.id === entry.id);
      if (e === undefined) return;
      e.attempts++;
      e.last_error = errorMessage(error);
      // A peer's 429 may say when to come back (`Retry-After`): then, not sooner.
      const wait = backoffDelay(e.attempts - 1, {
        baseMs: RETRY_BASE_MS,
        maxMs: RETRY_MAX_MS,
        retryAfterMs: error instanceof SpineError ? error.retryAfterMs : undefined,
      });
      e.next_at = now + Math.ceil(wait / 1000);
      onPending?.(error, e.next_at);
    });
    return "pending";
  }
  // Logged before it is marked sent. A hub killed after the post and before this comes
  // back to a pending entry, posts it again and hears `duplicate`: the network log, which
  // keeps one entry per id, tells whether the reply was counted and logged before.
  const logged = (await node.state.log()).some((e) =>
    e.direction === "out" && e.id === entry.id && e.address === entry.to
  );
  if (!logged) {
    if (entry.auto_reply) await node.state.recordAutoReply(entry.to, node.nowSec());
    await node.logOut(entry.to, entry.kind, entry.id, entry.thread, entry.log.text, {
      ...(entry.log.own_sub === undefined ? {} : { own_sub: entry.log.own_sub }),
      ...(entry.log.peer_sub === undefined ? {} : { peer_sub: entry.log.peer_sub }),
    });
  }
  await node.state.updateOutbox((entries) => {
    const e = entries.find((x) => x.id === entry.id);
    if (e === undefined) return;
    e.state = "sent";
    e.sent_at = node.nowSec();
    delete e.last_error;
  });
  return delivery;
}

/** Posts what is due, drops what waited 24 hours, forgets old delivered entries. */
export async function flushOutbox(node: OutboxNode): Promise<{ sent: number; waiting: number }> {
  const now = node.nowSec();
  const entries = await node.state.outbox();
  const expired = entries.filter((e) =>
    e.state === "pending" && now - e.created_at >= OUTBOX_RETRY_SECONDS
  );
  if (expired.length > 0 || entries.some((e) => isOld(e, now))) {
    await node.state.updateOutbox((list) => {
      for (let i = list.length - 1; i >= 0; i--) {
        const e = list[i]!;
        if (isOld(e, now) || expired.some((x) => x.id === e.id)) list.splice(i, 1);
      }
    });
  }
  for (const e of expired) {
    node.logger.warn(
      `network: dropped the ${e.kind} ${e.id} to ${e.to} after 24 h of failed delivery (${
        e.last_error ?? "no answer"
      })`,
    );
    // The owner hears of a message that never arrived; a removal stands either way.
    if (e.kind !== "message") continue;
    await (node.events ?? fileEventSink(node.paths.netDir)).publish({
      ts: now,
      type: "net.outbox_dropped",
      address: e.to,
      id: e.id,
      text: e.log.text,
    }).catch(() => {});
  }
  let sent = 0;
  for (const e of entries) {
    if (e.state !== "pending" || e.next_at > now || expired.includes(e)) continue;
    try {
      if (await attempt(node, e) !== "pending") sent++;
    } catch (error) {
      node.logger.warn(`network: ${e.to} refused the ${e.kind} ${e.id}: ${errorMessage(error)}`);
    }
  }
  return { sent, waiting: await outboxDepth(node) };
}

/** Forgets the envelopes of `kind` to `to` that wait for delivery (delivered ones stay). */
export async function dropPending(state: NetState, kind: OutboxKind, to: string): Promise<void> {
  const waiting = (e: OutboxEntry) => e.kind === kind && e.to === to && e.state === "pending";
  if (!(await state.outbox()).some(waiting)) return;
  await state.updateOutbox((entries) => {
    for (let i = entries.length - 1; i >= 0; i--) if (waiting(entries[i]!)) entries.splice(i, 1);
  });
}

/** How many envelopes wait for delivery. */
export async function outboxDepth(node: OutboxNode): Promise<number> {
  return (await node.state.outbox()).filter((e) => e.state === "pending").length;
}

function isOld(e: OutboxEntry, now: number): boolean {
  return e.state === "sent" && now - (e.sent_at ?? e.created_at) >= OUTBOX_SENT_KEEP_SECONDS;
}
