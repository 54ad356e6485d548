/**
 * A job run's life in one place: claim, ceilings, the turn, settle, pause and notice.
 * Every caller runs a job through {@linkcode JobRuns} (or {@linkcode runJob} with a
 * context of its own): the hub's scheduler, the cloud brain, the dashboard's Run now and
 * `agent jobs run`. The owner's pause and resume (`agent jobs pause|resume`) share the
 * pause's rules with the runs here.
 *
 * @module
 */
export type { JobRunContext, RunOutcome } from "./context.ts";
export { JobRuns, type JobRunsOptions } from "./runs.ts";
export { runJob, type RunJobOptions, runNow } from "./run.ts";
export { tellMissed } from "./notice.ts";
export { settleOrphans, settleShared } from "./settle.ts";
export { type PauseReach, pauseShared, resumeShared, syncPauses } from "./pause.ts";
export { sharedSlots, type SharedSlotsOptions } from "./shared_slots.ts";
