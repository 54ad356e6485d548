/**
 * What a run tells the owner besides its answer (which goes through the delivery
 * worker): a ceiling's pause (the job paused first, on both hubs), a failure, slots missed while no hub ran, a run its hub
 * died in. Each is a `job.notice` owner event; a failure to publish is logged, never
 * thrown, so a notice never stops a run.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import { type EventSaid, type OwnerEventSink, saidText } from "../../events/mod.ts";
import type { Lang } from "../../i18n.ts";
import { formatTime } from "../../i18n.ts";
import { type JobKey, t } from "../_messages.ts";
import type { JobDefinition } from "../definition.ts";
import { usd } from "../estimate.ts";
import { dayStart } from "../../ledger/mod.ts";
import type { JobRunContext } from "./context.ts";
import { pauseShared } from "./pause.ts";

/**
 * A jobs sentence as a code and its parameters (an owner event's `said`): `vars` as they
 * are, `usd` amounts and `words` (keys of the jobs catalogue) said in the reader's language.
 */
export function jobSaid(
  key: JobKey,
  parts: Pick<EventSaid, "vars" | "usd" | "words"> = {},
): EventSaid {
  return { code: `jobs.${key}`, ...parts };
}

/** `said` (a jobs sentence) as `lang` reads it. */
export function jobText(lang: Lang, said: EventSaid): string {
  return saidText(lang, said, { jobs: t }) ?? said.code;
}

/** Tells the owner `said` about `job`: the sentence in the hub's language, and its code. */
export async function notice(ctx: JobRunContext, job: string, said: EventSaid): Promise<void> {
  await publish(ctx, {
    ts: Math.floor(ctx.now() / 1000),
    type: "job.notice",
    job,
    text: jobText(ctx.lang, said),
    said,
  });
}

/** Tells the owner about slots missed while no hub ran (once per start and job). */
export async function tellMissed(
  ctx: JobRunContext,
  job: JobDefinition,
  count: number,
  lastSlotMs: number,
): Promise<void> {
  await notice(
    ctx,
    job.name,
    jobSaid("missed_told", {
      vars: { name: job.name, count, slot: formatTime(lastSlotMs) },
      words: { what: job.missed === "once" ? "missed_once" : "missed_skip" },
    }),
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
    jobSaid("interrupted_told", {
      vars: { name: job, slot: formatTime(slotMs) },
      usd: { usd: spent },
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
 * Pauses `job` at a ceiling (`reason`) and tells the owner `said`, once: only the run
 * that paused the job tells, and of the identity's two hubs only the first that paused
 * it that day (the other's copy pauses quietly).
 */
export async function pauseAndTell(
  ctx: JobRunContext,
  job: string,
  reason: string,
  said: EventSaid,
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
  if (tell) await notice(ctx, job, said);
  else ctx.logger.info(`jobs: ${job} paused (${reason}); the other hub told the owner`);
}
