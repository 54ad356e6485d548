/**
 * A run's claim: its slot in the job store, refused while another run of the job goes
 * in any process (a `running` row whose process is alive, written in the transaction
 * that checks it: not a flag of one process), and with a cloud spine the slot on the
 * spine too, with its share of the day reserved there and the job's shared pause read
 * in the same answer.
 *
 * @module
 */
import { dayStart } from "../../ledger/mod.ts";
import { processAlive } from "../../process_alive.ts";
import { t } from "../_messages.ts";
import type { JobDefinition } from "../definition.ts";
import { minRunUsd, usd } from "../estimate.ts";
import { ALL_JOBS } from "../pause_store.ts";
import type { RunRow } from "../store.ts";
import type { JobRunContext, RunOutcome } from "./context.ts";
import { mirrorClaim, sendUnsent } from "./pause.ts";

/**
 * The slots this process runs now: a `running` row of this process's id that is not
 * here is a former process's (a container restarts with the same id).
 */
export const LIVE = new Set<string>();

/** Whether the run of a `running` row still goes (its process is alive, or cannot be told). */
export function stillRuns(row: { slot_id: string; pid: number }): boolean {
  return row.pid === Deno.pid ? LIVE.has(row.slot_id) : processAlive(row.pid) !== false;
}

/** What the local claim said. */
export type LocalClaim =
  | { kind: "claimed" }
  | { kind: "taken" }
  /** Another run of the job goes: `row` is its slot. */
  | { kind: "busy"; row: RunRow };

/** Claims slot `id` of `job` in the job store; a claimed slot is {@linkcode LIVE} until released. */
export function claimLocal(
  ctx: JobRunContext,
  job: string,
  id: string,
  slotMs: number,
  missed: boolean,
): LocalClaim {
  const answer = ctx.store.claimRun(id, job, slotMs, ctx.now(), { missed, live: stillRuns });
  if (answer.kind === "claimed") LIVE.add(id);
  return answer;
}

/** What the shared claim said: the run goes on (with the spine's ceiling), or how it ended. */
export type SharedClaim =
  | { outcome: RunOutcome }
  | { shared: boolean; ceiling: number | undefined };

/**
 * The slot claimed on the shared slots: the run's ceiling there (with a day cap), or
 * the outcome when this hub does not run it (the other hub does, the job is paused on
 * the spine, the day is spent, or the spine did not answer). The claim's word on the
 * job's pause is mirrored here; without shared pauses (a spine in local mode) or an
 * answer, the pause here decides. A refusal for the day is returned as `day` for the
 * caller to settle.
 */
export async function claimShared(
  ctx: JobRunContext,
  job: JobDefinition,
  id: string,
  nowMs: number,
  sessionId: string,
  pausedHere: boolean,
): Promise<SharedClaim | { day: number }> {
  const { store, lang } = ctx;
  const slots = ctx.slots!;
  // A pause the spine did not get yet goes first: the claim then sees it.
  await sendUnsent(store, slots);
  const answer = await slots.claim({
    slotId: id,
    job: job.name,
    dayMs: dayStart(nowMs),
    maxRunUsd: job.max_usd_per_run,
    dayCapUsd: job.max_usd_per_day,
    minUsd: minRunUsd(ctx.config, job, ctx.systemChars),
    sessionId,
  });
  const pausedOutcome = (row?: { job: string; reason: string }) => {
    store.unclaim(id);
    const pause = row ?? pauseOf(ctx, job.name);
    return { outcome: { kind: "paused" as const, ...pause, text: pausedText(ctx, job, pause) } };
  };
  switch (answer.kind) {
    case "claimed": {
      if (store.pauses.unsent().some((r) => r.job === job.name || r.job === ALL_JOBS)) {
        // Paused here and not yet on the spine (it stopped answering in between).
        await slots.settle(id, 0);
        return pausedOutcome();
      }
      const resumed = mirrorClaim(store, job.name, answer, ctx.now());
      if (resumed.length > 0) {
        ctx.logger.info(`jobs: ${resumed.join(", ")} resumed on the other hub; resumed here`);
      }
      return {
        shared: true,
        ceiling: job.max_usd_per_day === undefined ? undefined : answer.reservedUsd,
      };
    }
    case "paused":
      if (!pausedHere) {
        ctx.logger.info(`jobs: ${answer.job} paused on the other hub (${answer.reason})`);
      }
      mirrorClaim(store, job.name, answer, ctx.now());
      return pausedOutcome({ job: answer.job, reason: answer.reason });
    case "off":
      return pausedHere ? pausedOutcome() : { shared: false, ceiling: undefined };
    case "taken":
      store.finish(id, { state: "taken", usd: 0, nowMs: ctx.now(), detail: t(lang, "taken") });
      return { outcome: { kind: "taken" } };
    case "day":
      return { day: answer.spentUsd };
    case "unreachable": {
      // The pause here holds while the spine is silent.
      if (pausedHere) return pausedOutcome();
      const detail = t(lang, "spine_unreachable", { detail: answer.detail });
      ctx.logger.warn(`jobs: ${id} ${detail}`);
      store.finish(id, { state: "missed", usd: 0, nowMs: ctx.now(), detail });
      return { outcome: { kind: "missed", usd: 0, text: detail } };
    }
  }
}

/** The pause that holds `job` here (its own, or every job's), for the outcome. */
export function pauseOf(ctx: JobRunContext, job: string): { job: string; reason: string } {
  const paused = ctx.store.pauses.all();
  const row = paused.get(job) ?? paused.get(ALL_JOBS);
  return { job: row?.job ?? job, reason: row?.reason ?? "owner" };
}

/**
 * The sentence of a run not made because `pause` holds `job`: at its day's ceiling it
 * says when the job can run again and which setting to raise.
 */
export function pausedText(
  ctx: JobRunContext,
  job: JobDefinition,
  pause: { job: string; reason: string },
): string {
  if (pause.job === ALL_JOBS) return t(ctx.lang, "paused_every");
  if (pause.reason === "day" && job.max_usd_per_day !== undefined) {
    return t(ctx.lang, "paused_day", { name: job.name, cap: usd(job.max_usd_per_day, ctx.lang) });
  }
  return t(ctx.lang, "paused_owner", { name: job.name });
}

/** The sentence of a run refused because another run of `job` goes (since `row`). */
export function busyText(ctx: JobRunContext, job: string, row: RunRow): string {
  return t(ctx.lang, "still_running_now", {
    name: job,
    since: clockTime(row.claimed_ms),
  });
}

/** `HH:MM:SS` in Istanbul: when the run that goes began. */
function clockTime(epochMs: number): string {
  const z = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO("Europe/Istanbul");
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(z.hour)}:${two(z.minute)}:${two(z.second)}`;
}
