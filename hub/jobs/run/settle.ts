/**
 * A run's end, settled: what its calls cost (from the ledger, by its session) written to
 * the job log with its answer's delivery in one transaction, its hold on the day
 * released to that real spend, and its share on the spine settled. A run whose process
 * died (a SIGKILL, a crash, a container stopped) is settled at the next start as
 * `interrupted` with what its calls cost, the owner told once, and never run again (its
 * calls may have been paid for, and a slot runs at most once): the ledger settles a call
 * in flight as estimated when it opens and expires the dead run's hold with it, so the
 * cost counts in the job's day and in the ledger alike.
 *
 * @module
 */
import { t } from "../_messages.ts";
import type { JobDefinition } from "../definition.ts";
import type { DeliveryTarget } from "../delivery_store.ts";
import { usd } from "../estimate.ts";
import type { RunRow } from "../store.ts";
import type { JobRunContext } from "./context.ts";
import { LIVE } from "./claim.ts";
import { tellInterrupted } from "./notice.ts";

/** The longest answer kept in the job log. */
const LOG_TEXT_MAX = 2_000;

/** How a run that went ended, for {@linkcode settleRun}. */
export interface RunEnd {
  id: string;
  sessionId: string;
  /** When the run began (its spend is counted from then). */
  startMs: number;
  /** The answer, or `undefined` with the failure's `detail`. */
  answer?: string | undefined;
  detail?: string | undefined;
  /** Its hold on the day in the ledger, if it has one. */
  hold: string | undefined;
  /** Whether its slot is claimed on the spine too. */
  shared: boolean;
}

/**
 * Settles a run that went: its spend, its entry in the log with the answer's pending
 * delivery (neither without the other), its hold released, its spine share settled.
 * Returns what it cost.
 */
export async function settleRun(
  ctx: JobRunContext,
  job: JobDefinition,
  end: RunEnd,
): Promise<number> {
  const spent = runSpend(ctx, end.sessionId, end.startMs);
  try {
    if (end.hold !== undefined) ctx.ledger?.releaseHold(end.hold);
  } catch (error) {
    // Left held, it expires with this process: the day holds too much, never too little.
    ctx.logger.warn(`jobs: cannot release ${end.id}'s hold: ${String(error)}`);
  }
  if (end.shared) await ctx.slots?.settle(end.id, spent);
  const nowMs = ctx.now();
  if (end.answer !== undefined) {
    const text = end.answer;
    const delivery = job.deliver === "none" ? undefined : {
      job: job.name,
      text: t(ctx.lang, "delivered", { name: job.name, usd: usd(spent, ctx.lang), text }),
      usd: spent,
      deliver: job.deliver,
      targets: deliveryTargets(job.deliver, ctx.chats),
    };
    ctx.store.finish(
      end.id,
      { state: "ok", usd: spent, nowMs, detail: clip(text), sessionId: end.sessionId },
      delivery,
    );
    if (delivery !== undefined) ctx.delivered?.();
  } else {
    ctx.store.finish(end.id, {
      state: "failed",
      usd: spent,
      nowMs,
      detail: clip(end.detail ?? ""),
      sessionId: end.sessionId,
    });
  }
  return spent;
}

/** Where an answer goes: the event stream, and with `messenger` each chat. */
export function deliveryTargets(
  deliver: "messenger" | "events",
  chats: readonly string[],
): DeliveryTarget[] {
  const targets: DeliveryTarget[] = ["events"];
  if (deliver === "messenger") { for (const chat of chats) targets.push(`chat:${chat}`); }
  return targets;
}

/**
 * Settles the slots a dead process left `running` (call it before any slot runs): each
 * becomes `interrupted` with what its calls cost (the ledger settled a call in flight
 * as estimated when it opened), and the owner is told once. Such a slot is not run
 * again: its calls may have been paid for, and a slot runs at most once.
 */
export async function settleOrphans(
  ctx: JobRunContext,
  alive: (pid: number) => boolean | undefined,
): Promise<RunRow[]> {
  const settled: RunRow[] = [];
  for (const row of ctx.store.orphans(alive)) {
    if (LIVE.has(row.slot_id)) continue;
    const spent = orphanSpend(ctx, row.session_id, row.claimed_ms);
    if (!ctx.store.settleInterrupted(row.slot_id, spent, ctx.now(), t(ctx.lang, "interrupted"))) {
      continue;
    }
    settled.push({ ...row, state: "interrupted", usd: spent });
    await tellInterrupted(ctx, row.job, row.slot_id, row.slot_ms, spent);
  }
  return settled;
}

/**
 * Settles the shared slots (on the spine) this hub left unsettled: a settle that never
 * arrived, or a run of a former process whose disk is gone (a cloud brain's container),
 * which is told to the owner as interrupted. Run in the background: a spine that does
 * not answer must not hold up the hub's start.
 */
export async function settleShared(ctx: JobRunContext): Promise<void> {
  for (const slot of await ctx.slots?.running() ?? []) {
    if (LIVE.has(slot.slot_id)) continue;
    const local = ctx.store.row(slot.slot_id);
    if (local?.state === "running") continue;
    const spent = local?.usd ?? orphanSpend(ctx, slot.session_id, 0);
    await ctx.slots!.settle(slot.slot_id, spent);
    if (local === undefined) {
      await tellInterrupted(ctx, slot.job, slot.slot_id, slotMsOf(slot.slot_id, ctx.now()), spent);
    }
  }
}

/** What session `sessionId` spent since `sinceMs` (with its calls in flight: `reserved`). */
export function runSpend(
  ctx: JobRunContext,
  sessionId: string,
  sinceMs: number,
  reserved = false,
): number {
  try {
    const spend = ctx.ledger?.sessionSpend(sessionId, sinceMs);
    if (spend === undefined) return 0;
    return spend.spentUsd + (reserved ? spend.reservedUsd : 0);
  } catch {
    return 0;
  }
}

/** What an orphaned run's calls cost; a call still pending (this pid's former process, which the ledger leaves) counts whole. */
function orphanSpend(ctx: JobRunContext, sessionId: string | null, sinceMs: number): number {
  return sessionId === null ? 0 : runSpend(ctx, sessionId, sinceMs, true);
}

/** The instant in a slot id (`<name>@<ISO instant>`, `<name>@now-<ISO instant>` by hand); `nowMs` when it names none. */
function slotMsOf(id: string, nowMs: number): number {
  const ms = Date.parse(id.slice(id.indexOf("@") + 1).replace(/^now-/, ""));
  return Number.isFinite(ms) ? ms : nowMs;
}

function clip(text: string): string {
  return text.length <= LOG_TEXT_MAX ? text : `${text.slice(0, LOG_TEXT_MAX - 1)}…`;
}
