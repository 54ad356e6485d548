/**
 * One run of a job: the checks before it (the global pause, the job's pause, its
 * daily ceiling, its role's budget), the slot claimed in the job store before the
 * call (so it runs at most once) and, with a cloud spine, on the spine too with its
 * share of the day reserved (`spine_slots.ts`: the identity's two hubs never run one
 * slot twice nor pass the day's ceiling together), the turn on the desk in a session
 * of its own with the run's ceiling held as a reservation on every call, and the
 * delivery of its answer: written pending in the same transaction as the run's result
 * (to the event stream, and to each messenger chat with `deliver: messenger`; `none`
 * keeps it in the job log only), then sent by the delivery worker (`delivery.ts`).
 *
 * A job that reaches a ceiling or a spent budget is paused and the owner told once (with
 * shared slots, once across both hubs: the spine says which hub tells).
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { AgentConfig } from "../config/types.ts";
import type { Desk } from "../desk/mod.ts";
import type { OwnerEventSink } from "../events/mod.ts";
import { formatTime, type Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import { budgetStatus } from "../spend/mod.ts";
import { dayStart, type Ledger } from "../ledger/mod.ts";
import { newSessionId } from "../sessions/mod.ts";
import { t } from "./_messages.ts";
import type { JobDefinition, JobTools } from "./definition.ts";
import { estimateJob, usd, usdAll } from "./estimate.ts";
import { slotId } from "./schedule.ts";
import { ALL_JOBS } from "./pause_store.ts";
import type { JobStore, RunState } from "./store.ts";
import type { DeliveryTarget } from "./delivery_store.ts";
import type { SharedSlots } from "./spine_slots.ts";
import { mirrorClaim, pauseShared, sendUnsent } from "./pauses.ts";

/** What a run needs from the hub. */
export interface JobRunContext {
  config: AgentConfig;
  lang: Lang;
  logger: Logger;
  ledger: Ledger | undefined;
  store: JobStore;
  /** The desk a job's turns run on (its tools: none, or tier 1 only). */
  desk(tools: JobTools): Desk;
  /** Where notices go (answers go through the delivery worker); absent: the log only. */
  events: OwnerEventSink | undefined;
  /** The messenger chats an answer with `deliver: messenger` goes to (none: no messenger). */
  chats: readonly string[];
  /** Told when an answer was written pending (the delivery worker sends it now). */
  delivered?: () => void;
  /** The slots shared with the identity's other hub (on a cloud spine), if any. */
  slots?: SharedSlots;
  /** The characters of the persona files (for the day ceiling's estimate). */
  systemChars: number;
  now(): number;
}

/** How a slot ended. */
export type RunOutcome =
  | { kind: RunState; usd: number; text?: string | undefined; sessionId?: string | undefined }
  /** Another hub claimed the slot first, or the job (or every job) is paused. */
  | { kind: "taken" }
  | { kind: "paused" };

/** The jobs running now, per job store: a job's runs never overlap in one process. */
const RUNNING = new WeakMap<JobStore, Set<string>>();

/** The slots this process runs now (a second store in one process must not settle them). */
export const LIVE = new Set<string>();

/** The longest answer kept in the job log. */
const LOG_TEXT_MAX = 2_000;

/**
 * Runs `job`'s slot at `slotMs` (a missed one when `missed`); `id` names the slot
 * (default `<name>@<ISO instant>`; `agent jobs run` names its own).
 */
export async function runJob(
  ctx: JobRunContext,
  job: JobDefinition,
  slotMs: number,
  options: { missed?: boolean; id?: string } = {},
): Promise<RunOutcome> {
  const { store, lang } = ctx;
  const paused = store.pauses.all();
  const pausedHere = paused.has(ALL_JOBS) || paused.has(job.name);
  // With shared slots the claim reads the pauses both hubs share (the spine's, which
  // this store mirrors): a pause or resume on the other hub counts at this very slot.
  if (pausedHere && ctx.slots === undefined) return { kind: "paused" };
  const id = options.id ?? slotId(job.name, slotMs);
  const nowMs = ctx.now();
  let running = RUNNING.get(store);
  if (running === undefined) RUNNING.set(store, running = new Set());
  if (running.has(job.name)) {
    // Its previous run is still going: this slot is skipped, and says why in the log.
    if (store.missed(id, job.name, slotMs, nowMs)) {
      store.finish(id, { state: "missed", usd: 0, nowMs, detail: t(lang, "still_running") });
    }
    return { kind: "missed", usd: 0 };
  }
  if (!store.claim(id, job.name, slotMs, nowMs, options.missed === true)) return { kind: "taken" };
  running.add(job.name);
  LIVE.add(id);
  try {
    return await claimed(ctx, job, id, slotMs, nowMs, pausedHere);
  } finally {
    running.delete(job.name);
    LIVE.delete(id);
  }
}

async function claimed(
  ctx: JobRunContext,
  job: JobDefinition,
  id: string,
  slotMs: number,
  nowMs: number,
  pausedHere: boolean,
): Promise<RunOutcome> {
  const { store, lang } = ctx;
  const sessionId = newSessionId(`job-${job.name}`, slotMs);
  // Both hubs of the identity: the slot, its share of the day and the job's pause, on
  // the spine, before the checks here (a refusal here gives the spine's share back).
  let shared = false;
  let sharedCeiling: number | undefined;
  if (ctx.slots !== undefined) {
    const answer = await claimShared(ctx, job, id, nowMs, sessionId, pausedHere);
    if ("outcome" in answer) return answer.outcome;
    shared = answer.shared;
    sharedCeiling = answer.ceiling;
  }
  const refusal = async (reason: string, text: string) => {
    if (shared) await ctx.slots?.settle(id, 0);
    return await refuse(ctx, job, id, reason, text);
  };
  // The day's ceiling: what today's runs cost plus one more run's most possible cost.
  let ceiling = job.max_usd_per_run;
  if (job.max_usd_per_day !== undefined) {
    const spent = store.spentSince(job.name, dayStart(nowMs));
    const left = job.max_usd_per_day - spent;
    const one = estimateJob(ctx.config, job, ctx.systemChars, nowMs).runUsd ?? 0;
    if (left < Math.min(one, job.max_usd_per_run ?? one) || left <= 0) {
      const [spentShown, cap] = usdAll(spent, job.max_usd_per_day);
      const text = t(lang, "ceiling_day", { name: job.name, spent: spentShown, cap });
      return await refusal("day", text);
    }
    ceiling = Math.min(ceiling ?? left, left);
  }
  // The role's budget, before anything is sent.
  const role = ctx.config.models.roles[job.role];
  if (ctx.ledger !== undefined && role !== undefined) {
    const status = budgetStatus(ctx.ledger, job.role, role, nowMs);
    if (status?.exhausted === true && status.degradeTo === undefined) {
      return await refusal("budget", t(lang, "budget_spent", { name: job.name, role: job.role }));
    }
  }
  if (sharedCeiling !== undefined) ceiling = Math.min(ceiling ?? sharedCeiling, sharedCeiling);
  const conversation = await ctx.desk(job.tools).open(`job:${job.name}`, { approvals: "deny" });
  const state = conversation.state;
  // Each run is a conversation of its own: nothing earlier is sent again (or paid for).
  state.sessionId = sessionId;
  state.ceiling = ceiling === undefined ? undefined : { usd: ceiling, sinceMs: nowMs };
  if (state.agent.role !== job.role) state.agent = state.rebuild(job.role);
  // Written before the first call: a run its hub died in is settled from its ledger rows.
  store.started(id, sessionId);
  let outcome;
  try {
    outcome = await conversation.submit(job.prompt);
  } catch (error) {
    outcome = { kind: "failed" as const, message: errorMessage(error) };
  }
  const spent = runSpend(ctx, sessionId, nowMs);
  if (shared) await ctx.slots?.settle(id, spent);
  const end = ctx.now();
  if (outcome.kind === "answered") {
    const text = outcome.result.reply;
    const delivery = job.deliver === "none" ? undefined : {
      job: job.name,
      text: t(lang, "delivered", { name: job.name, usd: usd(spent), text }),
      usd: spent,
      deliver: job.deliver,
      targets: deliveryTargets(job.deliver, ctx.chats),
    };
    // The result and its pending delivery in one transaction: neither without the other.
    store.finish(
      id,
      { state: "ok", usd: spent, nowMs: end, detail: clip(text), sessionId },
      delivery,
    );
    if (delivery !== undefined) ctx.delivered?.();
    return { kind: "ok", usd: spent, text, sessionId };
  }
  const message = outcome.kind === "failed" ? outcome.message : outcome.kind;
  store.finish(id, { state: "failed", usd: spent, nowMs: end, detail: clip(message), sessionId });
  const code = outcome.kind === "failed" ? outcome.code : undefined;
  if (code === "CeilingError") {
    await pauseAndTell(
      ctx,
      job,
      "run",
      t(lang, "ceiling_run", {
        name: job.name,
        cap: usd(ceiling ?? 0),
      }),
    );
  } else if (code === "BudgetSpentError") {
    await pauseAndTell(
      ctx,
      job,
      "budget",
      t(lang, "budget_spent", {
        name: job.name,
        role: job.role,
      }),
    );
  } else if (job.deliver !== "none") {
    await notice(ctx, job, t(lang, "failed_told", { name: job.name, detail: message }));
  }
  return { kind: "failed", usd: spent, text: message, sessionId };
}

/**
 * The slot claimed on the shared slots: the run's ceiling there (with a day cap), or
 * the outcome when this hub does not run it (the other hub does, the job is paused on
 * the spine, the day is spent, or the spine did not answer). The claim's word on the
 * job's pause is mirrored here (`pauses.ts`); without shared pauses (a spine in local
 * mode) or an answer, the pause here decides.
 */
async function claimShared(
  ctx: JobRunContext,
  job: JobDefinition,
  id: string,
  nowMs: number,
  sessionId: string,
  pausedHere: boolean,
): Promise<{ outcome: RunOutcome } | { shared: boolean; ceiling: number | undefined }> {
  const { store, lang } = ctx;
  const slots = ctx.slots!;
  // A pause the spine did not get yet goes first: the claim then sees it.
  await sendUnsent(store, slots);
  const one = estimateJob(ctx.config, job, ctx.systemChars, nowMs).runUsd ?? 0;
  const answer = await slots.claim({
    slotId: id,
    job: job.name,
    dayMs: dayStart(nowMs),
    maxRunUsd: job.max_usd_per_run,
    dayCapUsd: job.max_usd_per_day,
    minUsd: Math.min(one, job.max_usd_per_run ?? one),
    sessionId,
  });
  const pausedOutcome = () => {
    store.unclaim(id);
    return { outcome: { kind: "paused" as const } };
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
      return pausedOutcome();
    case "off":
      return pausedHere ? pausedOutcome() : { shared: false, ceiling: undefined };
    case "taken":
      store.finish(id, { state: "taken", usd: 0, nowMs: ctx.now(), detail: t(lang, "taken") });
      return { outcome: { kind: "taken" } };
    case "day": {
      const [spent, cap] = usdAll(answer.spentUsd, job.max_usd_per_day ?? 0);
      const text = t(lang, "ceiling_day", { name: job.name, spent, cap });
      return { outcome: await refuse(ctx, job, id, "day", text) };
    }
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

/** Where an answer goes: the event stream, and with `messenger` each chat. */
export function deliveryTargets(
  deliver: "messenger" | "events",
  chats: readonly string[],
): DeliveryTarget[] {
  const targets: DeliveryTarget[] = ["events"];
  if (deliver === "messenger") { for (const chat of chats) targets.push(`chat:${chat}`); }
  return targets;
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
    job,
    t(ctx.lang, "missed_told", { name: job.name, count, slot: formatTime(lastSlotMs), what }),
  );
}

async function refuse(
  ctx: JobRunContext,
  job: JobDefinition,
  id: string,
  reason: string,
  text: string,
): Promise<RunOutcome> {
  ctx.store.finish(id, { state: "refused", usd: 0, nowMs: ctx.now(), detail: text });
  await pauseAndTell(ctx, job, reason, text);
  return { kind: "refused", usd: 0, text };
}

async function pauseAndTell(
  ctx: JobRunContext,
  job: JobDefinition,
  reason: string,
  text: string,
): Promise<void> {
  // Told once: only the run that paused the job tells, and of the identity's two hubs
  // only the first that paused it that day (the other's copy pauses quietly).
  const { paused } = await pauseShared(ctx.store, ctx.slots, {
    job: job.name,
    reason,
    nowMs: ctx.now(),
  });
  if (!paused) return;
  const tell = ctx.slots === undefined || await ctx.slots.notice({
    job: job.name,
    dayMs: dayStart(ctx.now()),
    reason,
    sinceMs: ctx.store.pauses.resumedAt(job.name),
  });
  if (tell) await notice(ctx, job, text);
  else ctx.logger.info(`jobs: ${job.name} paused (${reason}); the other hub told the owner`);
}

async function notice(ctx: JobRunContext, job: JobDefinition, text: string): Promise<void> {
  await publish(ctx, { ts: Math.floor(ctx.now() / 1000), type: "job.notice", job: job.name, text });
}

/** Publishes an owner event; a failure is logged, never thrown. */
export async function publish(
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

function clip(text: string): string {
  return text.length <= LOG_TEXT_MAX ? text : `${text.slice(0, LOG_TEXT_MAX - 1)}…`;
}
