/**
 * Slots a process left `running` when it died (a SIGKILL, a crash, a container stopped):
 * at the next start each is settled as `interrupted` with what its calls cost, the
 * owner told once, and the slot never run again (its calls may have been paid for, and a
 * slot runs at most once). The ledger settles a call in flight as estimated when it
 * opens, so the cost counts in the job's day and in the ledger alike.
 *
 * @module
 */
import { formatTime } from "../i18n.ts";
import { t } from "./_messages.ts";
import { usd } from "./estimate.ts";
import { type JobRunContext, LIVE, publish, runSpend } from "./run.ts";
import type { RunRow } from "./store.ts";

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
      await tellInterrupted(ctx, slot.job, slot.slot_id, slotMsOf(slot.slot_id), spent);
    }
  }
}

/** What an orphaned run's calls cost; a call still pending (this pid's former process, which the ledger leaves) counts whole. */
function orphanSpend(ctx: JobRunContext, sessionId: string | null, sinceMs: number): number {
  return sessionId === null ? 0 : runSpend(ctx, sessionId, sinceMs, true);
}

async function tellInterrupted(
  ctx: JobRunContext,
  job: string,
  id: string,
  slotMs: number,
  spent: number,
): Promise<void> {
  ctx.logger.warn(`jobs: ${id} was interrupted by a stop; settled at ${usd(spent)}`);
  await publish(ctx, {
    ts: Math.floor(ctx.now() / 1000),
    type: "job.notice",
    job,
    text: t(ctx.lang, "interrupted_told", { name: job, slot: formatTime(slotMs), usd: usd(spent) }),
  });
}

/** The instant in a slot id (`<name>@<ISO instant>`, `<name>@now-<ISO instant>` by hand); now when it names none. */
function slotMsOf(id: string): number {
  const ms = Date.parse(id.slice(id.indexOf("@") + 1).replace(/^now-/, ""));
  return Number.isFinite(ms) ? ms : Date.now();
}
