/**
 * What a run tells the owner besides its answer (which goes through the delivery
 * worker): a ceiling's pause (the job paused first, on both hubs), a failure, slots missed while no hub ran, a run its hub
 * died in. Each is a `job.notice` owner event; a failure to publish is logged, never
 * thrown, so a notice never stops a run.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { OwnerEventSink } from "../../events/mod.ts";
import { formatTime } from "../../i18n.ts";
import { t } from "../_messages.ts";
import type { JobDefinition } from "../definition.ts";
import { usd } from "../estimate.ts";
import { dayStart } from "../../ledger/mod.ts";
import type { JobRunContext } from "./context.ts";
import { pauseShared } from "./pause.ts";

/** Tells the owner `text` about `job`. */
export async function notice(ctx: JobRunContext, job: string, text: string): Promise<void> {
  await publish(ctx, { ts: Math.floor(ctx.now() / 1000), type: "job.notice", job, text });
}

/** Tells the owner about slots missed while no hub ran (once per start and job). */
export async function tellMissed(
  ctx: JobRunContext,
  job: JobDefinition,
  count: number,
  lastSlotMs: number,
): Promise<void> {
  const what = t(ctx.lang, job.missed === "once" ? "missed_once" : "missed_skip");
  await notice(
    ctx,
    job.name,
    t(ctx.lang, "missed_told", { name: job.name, count, slot: formatTime(lastSlotMs), what }),
  );
}

/** Tells the owner that a run its hub died in was settled at `spent`, not run again. */
export async function tellInterrupted(
  ctx: JobRunContext,
  job: string,
  id: string,
  slotMs: number,
  spent: number,
): Promise<void> {
  ctx.logger.warn(`jobs: ${id} was interrupted by a stop; settled at ${usd(spent, "en")}`);
  await notice(
    ctx,
    job,
    t(ctx.lang, "interrupted_told", {
      name: job,
      slot: formatTime(slotMs),
      usd: usd(spent, ctx.lang),
    }),
  );
}

/** Publishes an owner event; a failure is logged, never thrown. */
async function publish(
  ctx: JobRunContext,
  event: Parameters<OwnerEventSink["publish"]>[0],
): Promise<void> {
  if (ctx.events === undefined) return;
  try {
    await ctx.events.publish(event);
  } catch (error) {
    ctx.logger.error(`jobs: cannot publish an owner event: ${errorMessage(error)}`);
  }
}

/**
 * Pauses `job` at a ceiling (`reason`) and tells the owner `text`, once: only the run
 * that paused the job tells, and of the identity's two hubs only the first that paused
 * it that day (the other's copy pauses quietly).
 */
export async function pauseAndTell(
  ctx: JobRunContext,
  job: string,
  reason: string,
  text: string,
): Promise<void> {
  const { paused } = await pauseShared(ctx.store, ctx.slots, {
    job,
    reason,
    nowMs: ctx.now(),
  });
  if (!paused) return;
  const tell = ctx.slots === undefined || await ctx.slots.notice({
    job,
    dayMs: dayStart(ctx.now()),
    reason,
    sinceMs: ctx.store.pauses.resumedAt(job),
  });
  if (tell) await notice(ctx, job, text);
  else ctx.logger.info(`jobs: ${job} paused (${reason}); the other hub told the owner`);
}
