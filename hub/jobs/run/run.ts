/**
 * One run of a job, from its claim to its settle, in the order it happens:
 *
 * 1. **Claim** (`claim.ts`): the slot in the job store, refused while another run of
 *    the job goes in any process; with a cloud spine the slot there too, with its share
 *    of the day and the job's shared pause.
 * 2. **Ceilings** (`ceiling.ts`): the job's day held in the ledger before the first call,
 *    the role's budget.
 * 3. The turn on the desk, in a session of its own, with the run's ceiling held as a
 *    reservation on every call.
 * 4. **Settle** (`settle.ts`): the spend and the answer's pending delivery written in one
 *    transaction, the hold released, the spine's share settled.
 * 5. **Pause and notice** (`pause.ts`, `notice.ts`): a job that meets a ceiling is paused
 *    and the owner told once (with shared slots, once across both hubs).
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import { newSessionId } from "../../sessions/mod.ts";
import { t } from "../_messages.ts";
import { type JobDefinition, jobMcpTools } from "../definition.ts";
import type { EventSaid } from "../../events/mod.ts";
import { slotId } from "../schedule.ts";
import { ALL_JOBS } from "../pause_store.ts";
import type { JobRunContext, RunOutcome } from "./context.ts";
import { busyText, claimLocal, claimShared, LIVE, pausedText, pauseOf } from "./claim.ts";
import { dayRefusal, holdCeilings } from "./ceiling.ts";
import { jobSaid, jobText, notice, pauseAndTell } from "./notice.ts";
import { settleRun } from "./settle.ts";

/** Why a run that did not fail has no answer, by its outcome, as the log says it. */
const NOT_ANSWERED: Partial<Record<string, "run_cancelled" | "run_closed">> = {
  cancelled: "run_cancelled",
  closed: "run_closed",
};

/** Options for {@linkcode runJob}. */
export interface RunJobOptions {
  /** A slot missed while no hub ran, run once on start. @default false */
  missed?: boolean;
  /** The slot's id. @default `<name>@<ISO instant>` */
  id?: string;
}

/**
 * Runs `job`'s slot at `slotMs` through claim, ceilings, turn and settle; returns how it
 * ended.
 */
export async function runJob(
  ctx: JobRunContext,
  job: JobDefinition,
  slotMs: number,
  options: RunJobOptions = {},
): Promise<RunOutcome> {
  const { store } = ctx;
  const paused = store.pauses.all();
  const pausedHere = paused.has(ALL_JOBS) || paused.has(job.name);
  // With shared slots the claim reads the pauses both hubs share (the spine's, which
  // this store mirrors): a pause or resume on the other hub counts at this very slot.
  if (pausedHere && ctx.slots === undefined) {
    const pause = pauseOf(ctx, job.name);
    return { kind: "paused", ...pause, text: pausedText(ctx, job, pause) };
  }
  const id = options.id ?? slotId(job.name, slotMs);
  const claim = claimLocal(ctx, job.name, id, slotMs, options.missed === true);
  if (claim.kind === "taken") return { kind: "taken" };
  if (claim.kind === "busy") {
    // Its previous run is still going: this slot is skipped, and says why in the log.
    const nowMs = ctx.now();
    if (store.missed(id, job.name, slotMs, nowMs)) {
      store.finish(id, { state: "missed", usd: 0, nowMs, detail: t(ctx.lang, "still_running") });
    }
    return { kind: "missed", usd: 0, text: busyText(ctx, job.name, claim.row) };
  }
  try {
    return await claimed(ctx, job, id, slotMs, pausedHere);
  } finally {
    LIVE.delete(id);
  }
}

/** Runs `job` once now, as a slot of its own (`<name>@now-<ISO instant>`) that never takes a scheduled one. */
export async function runNow(ctx: JobRunContext, job: JobDefinition): Promise<RunOutcome> {
  const nowMs = ctx.now();
  return await runJob(ctx, job, nowMs, { id: `${job.name}@now-${new Date(nowMs).toISOString()}` });
}

async function claimed(
  ctx: JobRunContext,
  job: JobDefinition,
  id: string,
  slotMs: number,
  pausedHere: boolean,
): Promise<RunOutcome> {
  const nowMs = ctx.now();
  const sessionId = newSessionId(`job-${job.name}`, slotMs);
  // Both hubs of the identity: the slot, its share of the day and the job's pause, on
  // the spine, before the checks here (a refusal here gives the spine's share back).
  let shared = false;
  let sharedCeiling: number | undefined;
  if (ctx.slots !== undefined) {
    const answer = await claimShared(ctx, job, id, nowMs, sessionId, pausedHere);
    if ("outcome" in answer) return answer.outcome;
    if ("day" in answer) {
      return await refuse(ctx, job, id, dayRefusal(job, answer.day));
    }
    shared = answer.shared;
    sharedCeiling = answer.ceiling;
  }
  let ceilings;
  try {
    ceilings = holdCeilings(ctx, job, { id, sessionId, nowMs, shared: sharedCeiling });
  } catch (error) {
    // The ledger could not be written: nothing is sent, the slot is not run.
    if (shared) await ctx.slots?.settle(id, 0);
    const detail = errorMessage(error);
    ctx.store.finish(id, { state: "failed", usd: 0, nowMs: ctx.now(), detail });
    return { kind: "failed", usd: 0, text: detail };
  }
  if (ceilings.kind === "refused") {
    if (shared) await ctx.slots?.settle(id, 0);
    return await refuse(ctx, job, id, ceilings);
  }
  const ceiling = ceilings.usd;
  let outcome;
  try {
    // Each run is a conversation of its own: nothing earlier is sent again (or paid for).
    const conversation = await ctx.desk(job.tools, jobMcpTools(job.mcp)).open(`job:${job.name}`, {
      approvals: "deny",
      picked: { sessionId, role: job.role, fixedRole: job.role },
      ceiling: ceiling === undefined ? undefined : { usd: ceiling, sinceMs: nowMs },
    });
    try {
      // Written before the first call: a run its hub died in is settled from its ledger rows.
      ctx.store.started(id, sessionId);
      outcome = await conversation.submit(job.prompt);
    } finally {
      await conversation.close();
    }
  } catch (error) {
    outcome = { kind: "failed" as const, message: errorMessage(error) };
  }
  // Said in the owner's language: the job log shows it as the reason.
  const message = outcome.kind === "answered"
    ? undefined
    : outcome.kind === "failed"
    ? outcome.message
    : t(ctx.lang, NOT_ANSWERED[outcome.kind] ?? "run_no_answer");
  const spent = await settleRun(ctx, job, {
    id,
    sessionId,
    startMs: nowMs,
    answer: outcome.kind === "answered" ? outcome.result.reply : undefined,
    detail: message,
    hold: ceilings.hold,
    shared,
  });
  if (outcome.kind === "answered") {
    return { kind: "ok", usd: spent, text: outcome.result.reply, sessionId };
  }
  const code = outcome.kind === "failed" ? outcome.code : undefined;
  if (code === "CeilingError") {
    await pauseAndTell(
      ctx,
      job.name,
      "run",
      jobSaid("ceiling_run", { vars: { name: job.name }, usd: { cap: ceiling ?? 0 } }),
    );
  } else if (code === "BudgetSpentError") {
    await pauseAndTell(
      ctx,
      job.name,
      "budget",
      jobSaid("budget_spent", { vars: { name: job.name, role: job.role } }),
    );
  } else if (job.deliver !== "none") {
    await notice(
      ctx,
      job.name,
      jobSaid("failed_told", { vars: { name: job.name, detail: message ?? "" } }),
    );
  }
  return { kind: "failed", usd: spent, text: message, sessionId };
}

/** Records slot `id` as refused at a ceiling, pauses the job and tells the owner once. */
async function refuse(
  ctx: JobRunContext,
  job: JobDefinition,
  id: string,
  refused: { reason: string; said: EventSaid },
): Promise<RunOutcome> {
  const text = jobText(ctx.lang, refused.said);
  ctx.store.finish(id, { state: "refused", usd: 0, nowMs: ctx.now(), detail: text });
  await pauseAndTell(ctx, job.name, refused.reason, refused.said);
  return { kind: "refused", usd: 0, text };
}
