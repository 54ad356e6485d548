/**
 * A run's ceilings, held before its first call: the job's day (`max_usd_per_day`) as a
 * hold in the ledger, written in the `BEGIN IMMEDIATE` transaction that checks it (so
 * runs at once in any processes, the hub's, `agent jobs run`'s and the dashboard's,
 * never pass the day together; see `Ledger.hold`), and the role's budget. The run's
 * ceiling, held on each of its calls, is the least of `max_usd_per_run`, the day's hold
 * and the spine's share.
 *
 * @module
 */
import { dayStart } from "../../ledger/mod.ts";
import { budgetStatus } from "../../spend/mod.ts";
import type { JobDefinition } from "../definition.ts";
import { minRunUsd } from "../estimate.ts";
import type { EventSaid } from "../../events/mod.ts";
import { jobSaid } from "./notice.ts";
import type { JobRunContext } from "./context.ts";

/** What the ceilings said. */
export type Ceilings =
  /** The run goes: `usd` caps its calls (none: no cap); `hold` is its hold in the ledger. */
  | { kind: "ok"; usd: number | undefined; hold: string | undefined }
  /** Refused: the job pauses for `reason` (`day`, `budget`) and the owner is told `said`. */
  | { kind: "refused"; reason: "day" | "budget"; said: EventSaid };

/**
 * Holds the day and checks the role's budget for run `id` (session `sessionId`) of
 * `job`; `shared` is the spine's share of the day, when it holds one.
 */
export function holdCeilings(
  ctx: JobRunContext,
  job: JobDefinition,
  run: { id: string; sessionId: string; nowMs: number; shared: number | undefined },
): Ceilings {
  let ceiling = job.max_usd_per_run;
  let hold: string | undefined;
  const cap = job.max_usd_per_day;
  if (cap !== undefined) {
    const minUsd = minRunUsd(ctx.config, job, ctx.systemChars);
    const sinceMs = dayStart(run.nowMs);
    const ledger = ctx.ledger;
    if (ledger !== undefined && !ledger.readOnly) {
      const answer = ledger.hold(
        { holdId: run.id, job: job.name, sessionId: run.sessionId, ts: run.nowMs },
        { usd: cap, sinceMs, runUsd: job.max_usd_per_run, minUsd },
      );
      if (!answer.ok) return dayRefusal(job, answer.spentUsd + answer.heldUsd);
      ceiling = answer.usd;
      hold = run.id;
    } else {
      // No ledger to hold the day in: the runs this job log finished today count.
      const spent = ctx.store.spentSince(job.name, sinceMs);
      const left = cap - spent;
      if (left < minUsd || left <= 0) return dayRefusal(job, spent);
      ceiling = Math.min(ceiling ?? left, left);
    }
  }
  // The role's budget, before anything is sent.
  const role = ctx.config.models.roles[job.role];
  if (ctx.ledger !== undefined && role !== undefined) {
    const status = budgetStatus(ctx.ledger, job.role, role, run.nowMs);
    if (status?.exhausted === true && status.degradeTo === undefined) {
      if (hold !== undefined) ctx.ledger.releaseHold(hold);
      return {
        kind: "refused",
        reason: "budget",
        said: jobSaid("budget_spent", { vars: { name: job.name, role: job.role } }),
      };
    }
  }
  if (run.shared !== undefined) ceiling = Math.min(ceiling ?? run.shared, run.shared);
  return { kind: "ok", usd: ceiling, hold };
}

/** The refusal of a run the day leaves no room for (`spent`: what the day holds). */
export function dayRefusal(
  job: JobDefinition,
  spent: number,
): Extract<Ceilings, { kind: "refused" }> {
  return {
    kind: "refused",
    reason: "day",
    said: jobSaid("ceiling_day", {
      vars: { name: job.name },
      usd: { spent, cap: job.max_usd_per_day ?? 0 },
    }),
  };
}
