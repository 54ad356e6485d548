/**
 * Scheduled jobs: `persona/jobs/<name>.md` files (a cron schedule, a role, cost
 * ceilings, where the answer goes) that the hub runs as turns on the desk, each slot
 * at most once, never past its ceilings; and what `agent jobs` does with them.
 *
 * This is the `@agent/hub/jobs` door, which `agent jobs list`, `add` and `log` start on:
 * nothing here loads the desk (the agent, its tools, zod) statically. `jobDesks` is
 * offered by the main door; `JobRuns.open` loads it when jobs run.
 *
 * @module
 */
export {
  DEFAULT_JOB_TZ,
  JOB_NAME_PATTERN,
  type JobDefinition,
  type JobDelivery,
  JobFileError,
  jobFileText,
  type JobMissed,
  type JobTools,
  parseJobFile,
  type ParseJobOptions,
} from "./definition.ts";
export { estimateJob, type JobEstimate, usd } from "./estimate.ts";
// A ceiling as the owner types it (`--max-usd-per-run 0,05` in Turkish).
export { parseUsd } from "../spend/usd_format.ts";
export { jobFile, jobsDir, jobStoreFile, type LoadedJobs, loadJobs } from "./files.ts";
export {
  addJob,
  estimateLine,
  formatIn,
  jobCount,
  type JobListing,
  type JobListRow,
  jobLog,
  type JobsScope,
  listJobs,
  type NewJob,
  pauseJobs,
  removeJobNamed,
  resumeJobs,
  type ResumeJobsOptions,
} from "./manage.ts";
export { listLines, type ListLinesOptions, logLines, reasonWord, stateWord } from "./lines.ts";
export {
  type JobRunContext,
  JobRuns,
  type JobRunsOptions,
  type PauseReach,
  pauseShared,
  resumeShared,
  runJob,
  type RunJobOptions,
  runNow,
  type RunOutcome,
  settleOrphans,
  settleShared,
  sharedSlots,
  type SharedSlotsOptions,
  syncPauses,
} from "./run/mod.ts";
export { JobRunner, type JobRunnerOptions } from "./runner.ts";
export { type Clock, ManualClock } from "../clock.ts";
export { answerPreview } from "./preview.ts";
export { reasonIn } from "./reasons.ts";
export { JobStore, type RunRow, type RunState } from "./store.ts";
export { ALL_JOBS, type PausedRow, type PauseStore } from "./pause_store.ts";
export { DeliveryError, type DeliverySinks, DeliveryWorker } from "./delivery.ts";
export {
  type DeliveryRow,
  type DeliveryState,
  type DeliveryStore,
  type DeliveryTarget,
  type NewDelivery,
} from "./delivery_store.ts";
export {
  type ClaimAnswer,
  type SharedPause,
  type SharedSlots,
  type SlotClaim,
  type SlotNotice,
  type SpineAnswer,
  spineOf,
  SpineSlots,
} from "./spine_slots.ts";
export {
  type JobSummary,
  type SpineDelivery,
  SpineOutbox,
  type SpineOutboxOptions,
} from "./spine_outbox.ts";
