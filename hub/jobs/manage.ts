/**
 * What `agent jobs` (and `/jobs` on the desk) does: list the jobs with their next run,
 * last outcome and spend, add one after estimating what it may cost, run one now,
 * pause and resume (one job or all), remove one, read the log. Each opens the job
 * store for the call and closes it; a hub running at the same time sees the same
 * store (SQLite) and the same files. With a cloud spine (`AGENT_SPINE_URL` and
 * `AGENT_SPINE_TOKEN` in the scope's `env`) pauses and resumes are the spine's, shared
 * with the identity's other hub, and the listing shows them (`run/pause.ts`).
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { AgentPaths } from "../paths.ts";
import { dayStart } from "../ledger/mod.ts";
import { UserError } from "../user_error.ts";
import { t } from "./_messages.ts";
import { type JobDefinition, JobFileError, parseJobFile } from "./definition.ts";
import { estimateJob, type JobEstimate, minRunUsd, personaChars, usd, usdAll } from "./estimate.ts";
import { jobExists, jobStoreFile, loadJobs, removeJob, writeJob } from "./files.ts";
import { nextSlot, scheduleOf } from "./schedule.ts";
import { ALL_JOBS } from "./pause_store.ts";
import { JobStore, type RunRow } from "./store.ts";
import { DEFAULT_JOB_TZ, jobFileText } from "./definition.ts";
// The pause's rules and the spine a home names, as the runs use them (not the runs).
import { pauseShared, resumeShared, syncPauses } from "./run/pause.ts";
import { sharedSlots } from "./run/shared_slots.ts";
import type { SharedSlots } from "./spine_slots.ts";
import type { JobSummary } from "./spine_outbox.ts";

/** What every management call needs. */
export interface JobsScope {
  paths: AgentPaths;
  config: AgentConfig;
  lang: Lang;
  /** @default Date.now() */
  nowMs?: number;
  /**
   * The merged environment: with `AGENT_SPINE_URL` and `AGENT_SPINE_TOKEN` the pauses
   * are shared with the identity's other hub on that spine. Absent: this home's only.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** How the spine is reached (tests). @default fetch */
  fetch?: typeof fetch;
  /**
   * What resumes every job where the person is, for the pause's sentence: `/jobs resume`
   * in a chat. @default "'agent jobs resume --all'"
   */
  resumeAll?: string;
}

/** One line of `agent jobs list`. */
export interface JobListRow {
  name: string;
  schedule: string;
  tz: string;
  role: string;
  deliver: string;
  /** Epoch ms of the next run; `null` when the schedule has no more. */
  next_ms: number | null;
  /** `DD.MM.YYYY HH:MM` in the job's time zone. */
  next: string | null;
  /** `owner`, `day`, `run`, `budget`, or `null` when it runs. */
  paused: string | null;
  last_state: string | null;
  last_ms: number | null;
  spent_today_usd: number;
  spent_30d_usd: number;
  max_usd_per_run: number | null;
  max_usd_per_day: number | null;
}

/** What `agent jobs list` shows. */
export interface JobListing {
  jobs: JobListRow[];
  /** The job files that cannot be used, one sentence each. */
  errors: string[];
  all_paused: boolean;
  /**
   * Where the pauses shown come from: `shared` (the spine both hubs share), `local`
   * (this home: no cloud spine), `stale` (the spine did not answer: what this hub last
   * knew; `stale_detail` says why).
   */
  pauses: "shared" | "local" | "stale";
  stale_detail?: string;
  /** `cloud` (`--cloud`): the last outcomes and the spend are the cloud brain's. */
  log?: "cloud";
}

/**
 * `agent jobs list`: the jobs, the files that cannot be used, and the global pause. With
 * `cloudLog` (`--cloud`: the brain's log on the spine, `SpineOutbox.summary`),
 * the last outcome and the spend are the cloud brain's instead of this home's.
 */
export async function listJobs(
  scope: JobsScope,
  cloudLog?: ReadonlyMap<string, JobSummary>,
): Promise<JobListing> {
  const now = scope.nowMs ?? Date.now();
  const { jobs, errors } = await loadJobs(scope.paths, scope.config, scope.lang);
  return await withStore(scope.paths, async (store, readOnly) => {
    // A read-only home reads the pauses it has: mirroring the spine's would write.
    const sync = readOnly
      ? { kind: "local" as const }
      : await syncPauses(store, sharedPauses(scope, store), now);
    const paused = store.pauses.all();
    const rows = jobs.map((job): JobListRow => {
      const next = nextSlot(scheduleOf(job.schedule, job.tz), now);
      const [last] = cloudLog === undefined ? store.log(job.name, 1) : [];
      const cloud = cloudLog?.get(job.name);
      return {
        name: job.name,
        schedule: job.schedule,
        tz: job.tz,
        role: job.role,
        deliver: job.deliver,
        next_ms: next ?? null,
        next: next === undefined ? null : formatIn(next, job.tz),
        paused: paused.get(job.name)?.reason ?? null,
        last_state: cloudLog === undefined ? last?.state ?? null : cloud?.last_state ?? null,
        last_ms: cloudLog === undefined ? last?.slot_ms ?? null : cloud?.last_ms ?? null,
        spent_today_usd: cloudLog === undefined
          ? store.spentSince(job.name, dayStart(now))
          : cloud?.today_usd ?? 0,
        spent_30d_usd: cloudLog === undefined
          ? store.spentSince(job.name, now - 30 * 86_400_000)
          : cloud?.period_usd ?? 0,
        max_usd_per_run: job.max_usd_per_run ?? null,
        max_usd_per_day: job.max_usd_per_day ?? null,
      };
    });
    return {
      jobs: rows,
      errors,
      ...(cloudLog === undefined ? {} : { log: "cloud" as const }),
      all_paused: paused.has(ALL_JOBS),
      ...(sync.kind === "unreachable"
        ? { pauses: "stale" as const, stale_detail: sync.detail }
        : { pauses: sync.kind }),
    };
  }, { read: true });
}

/** The fields `agent jobs add` takes. */
export type NewJob =
  & Omit<JobDefinition, "tz" | "role" | "deliver" | "missed" | "tools">
  & Partial<Pick<JobDefinition, "tz" | "role" | "deliver" | "missed" | "tools">>;

/**
 * `agent jobs add`: validates the job as its file would be read, estimates one run
 * and a day, refuses a job whose run may cost more than its `max_usd_per_run` (or whose
 * model has no price while it has one), writes the file; returns the lines to print.
 */
export async function addJob(scope: JobsScope, fields: NewJob): Promise<string[]> {
  const { paths, config, lang } = scope;
  const now = scope.nowMs ?? Date.now();
  const file = `persona/jobs/${fields.name}.md`;
  let job: JobDefinition;
  try {
    const draft = {
      tz: "",
      role: "",
      deliver: "messenger",
      missed: "once",
      tools: "none",
      ...fields,
    };
    job = parseJobFile(fields.name, jobFileText(draft as JobDefinition), {
      file,
      roles: Object.keys(config.models.roles),
      lang,
      fromOptions: true,
    });
  } catch (error) {
    if (error instanceof JobFileError) throw new UserError(error.message, 2);
    throw error;
  }
  if (await jobExists(paths, job.name)) {
    throw new UserError(t(lang, "exists", { name: job.name, file }), 1);
  }
  const estimate = estimateJob(config, job, await personaChars(paths.personaDir), now);
  const cap = job.max_usd_per_run;
  if (cap !== undefined && estimate.runUsd === undefined) {
    throw new UserError(t(lang, "unpriced_ceiling", { name: job.name, model: estimate.model }), 1);
  }
  if (cap !== undefined && estimate.runUsd !== undefined && estimate.runUsd > cap + 1e-12) {
    const [run, capShown] = usdAll([estimate.runUsd, cap], lang);
    throw new UserError(t(lang, "over_ceiling", { name: job.name, run, cap: capShown }), 1);
  }
  await writeJob(paths, job);
  await withStore(paths, (store) => store.since(job.name, now));
  const next = nextSlot(scheduleOf(job.schedule, job.tz), now);
  return [
    estimateLine(estimate, lang),
    t(lang, "added", {
      name: job.name,
      // A time in another zone than Istanbul's says which, as `agent jobs list` does.
      next: next === undefined
        ? "-"
        : job.tz === DEFAULT_JOB_TZ
        ? formatIn(next, job.tz)
        : `${formatIn(next, job.tz)} (${job.tz})`,
    }),
  ];
}

/** The estimate as one sentence. */
export function estimateLine(estimate: JobEstimate, lang: Lang): string {
  if (estimate.runUsd === undefined) return t(lang, "estimate_unpriced", { model: estimate.model });
  return t(lang, "estimate", {
    run: usd(estimate.runUsd, lang),
    day: usd(estimate.dayUsd ?? 0, lang),
    runs: estimate.runsPerDay,
  });
}

/**
 * `agent jobs pause NAME` / `--all` (`name` undefined); returns the sentence. With a
 * cloud spine the pause is the spine's (both hubs); one the spine did not get holds here
 * and is sent later, which the sentence says.
 */
export async function pauseJobs(scope: JobsScope, name: string | undefined): Promise<string> {
  if (name !== undefined) await jobExistsOrSay(scope, name);
  return await withStore(scope.paths, async (store) => {
    const { reach } = await pauseShared(store, sharedPauses(scope, store), {
      job: name ?? ALL_JOBS,
      reason: "owner",
      nowMs: scope.nowMs ?? Date.now(),
    });
    if (reach.kind === "unreachable") {
      return name === undefined
        ? t(scope.lang, "paused_all_here", { detail: reach.detail })
        : t(scope.lang, "paused_here", { name, detail: reach.detail });
    }
    return name === undefined
      ? t(scope.lang, "paused_all", { resume: scope.resumeAll ?? "'agent jobs resume --all'" })
      : t(scope.lang, "paused", { name });
  });
}

/** Options for {@linkcode resumeJobs}. */
export interface ResumeJobsOptions {
  /**
   * Without a name, lift only the global pause ("Pause all"), keeping each job's own
   * pause (the dashboard's "Resume all" undoes its "Pause all" and nothing else).
   * @default false
   */
  keepOwn?: boolean;
}

/**
 * `agent jobs resume NAME` / `--all` (every job and the global pause). With a cloud
 * spine the resume is the spine's (both hubs); when the spine does not answer nothing is
 * resumed (exit 1), as its pause would pause the job here again at the next slot.
 */
export async function resumeJobs(
  scope: JobsScope,
  name: string | undefined,
  options: ResumeJobsOptions = {},
): Promise<string> {
  const job = name === undefined ? undefined : await needJob(scope, name);
  return await withStore(scope.paths, async (store) => {
    const reason = name === undefined ? undefined : store.pauses.all().get(name)?.reason;
    const kept = name === undefined && options.keepOwn
      ? [...store.pauses.all().keys()].filter((job) => job !== ALL_JOBS)
      : [];
    const reach = await resumeShared(
      store,
      sharedPauses(scope, store),
      name ?? ALL_JOBS,
      options.keepOwn ?? false,
    );
    if (reach.kind === "unreachable") {
      throw new UserError(
        name === undefined
          ? t(scope.lang, "resume_all_unreachable", { detail: reach.detail })
          : t(scope.lang, "resume_unreachable", { name, detail: reach.detail }),
        1,
      );
    }
    if (name === undefined) {
      return kept.length === 0
        ? t(scope.lang, "resumed_all")
        : t(scope.lang, "resumed_all_kept", { names: kept.join(", ") });
    }
    // Resumed at its day's ceiling with the day still spent: say when it runs again.
    const spent = reason === "day" && job !== undefined
      ? await daySpent(scope, store, job)
      : undefined;
    if (spent === undefined) return t(scope.lang, "resumed", { name });
    const [spentShown, cap] = usdAll([spent, job?.max_usd_per_day ?? 0], scope.lang);
    return t(scope.lang, "resumed_day_spent", { name, spent: spentShown, cap });
  });
}

/**
 * What `job`'s day holds when it leaves less than one run under its `max_usd_per_day`
 * (the run's check: one run's estimate, at most `max_usd_per_run`); `undefined` when a
 * run fits or the job has no day ceiling.
 */
async function daySpent(
  scope: JobsScope,
  store: JobStore,
  job: JobDefinition,
): Promise<number | undefined> {
  const cap = job.max_usd_per_day;
  if (cap === undefined) return undefined;
  const now = scope.nowMs ?? Date.now();
  const spent = store.spentSince(job.name, dayStart(now));
  const least = minRunUsd(scope.config, job, await personaChars(scope.paths.personaDir));
  const left = cap - spent;
  return left < least || left <= 0 ? spent : undefined;
}

/** The pauses shared on the scope's cloud spine, if its environment names one. */
function sharedPauses(scope: JobsScope, store: JobStore): SharedSlots | undefined {
  if (scope.env === undefined) return undefined;
  return sharedSlots({ env: scope.env, store, fetch: scope.fetch });
}

/** `agent jobs remove NAME`: the file goes; its log stays. */
export async function removeJobNamed(scope: JobsScope, name: string): Promise<string> {
  if (!(await removeJob(scope.paths, name))) {
    throw new UserError(t(scope.lang, "no_job", { name }), 1);
  }
  await withStore(scope.paths, (store) => store.forget(name));
  return t(scope.lang, "removed", { name });
}

/**
 * `agent jobs log [NAME]`: the newest rows, newest first. A name that is no job now and
 * never ran is refused as `pause` refuses it; a removed job's log stays readable.
 */
export async function jobLog(scope: JobsScope, name: string | undefined): Promise<RunRow[]> {
  const rows = await withStore(scope.paths, (store) => store.log(name, 50), { read: true });
  if (name !== undefined && rows.length === 0) await jobExistsOrSay(scope, name);
  return rows;
}

/** Whether jobs exist (for `doctor`). */
export async function jobCount(scope: JobsScope): Promise<number> {
  return (await loadJobs(scope.paths, scope.config, scope.lang)).jobs.length;
}

/** Refuses a name that is no job, in the sentence every command says it. */
async function jobExistsOrSay(scope: JobsScope, name: string): Promise<void> {
  if (!(await jobExists(scope.paths, name))) {
    throw new UserError(t(scope.lang, "no_job", { name }), 1);
  }
}

/** Job `name` as its file reads (`undefined` when the file cannot be used); no file: the sentence. */
async function needJob(scope: JobsScope, name: string): Promise<JobDefinition | undefined> {
  await jobExistsOrSay(scope, name);
  const { jobs } = await loadJobs(scope.paths, scope.config, scope.lang);
  return jobs.find((j) => j.name === name);
}

/** Options for {@linkcode withStore}. */
export interface WithStoreOptions {
  /**
   * `use` only reads: on a home that cannot be written (a read-only file system) the
   * store is opened to read (`JobStore.openToRead`) rather than failing with the OS's
   * error, and `use` is told so. @default false
   */
  read?: boolean;
}

/** Runs `use` with the job store open (created when missing). */
export async function withStore<T>(
  paths: AgentPaths,
  use: (store: JobStore, readOnly: boolean) => T | Promise<T>,
  options: WithStoreOptions = {},
): Promise<T> {
  let store: JobStore;
  let readOnly = false;
  try {
    await Deno.mkdir(paths.dataDir, { recursive: true, mode: 0o700 });
    store = JobStore.open(jobStoreFile(paths));
  } catch (error) {
    if (options.read !== true || !cannotWrite(error)) throw error;
    store = JobStore.openToRead(jobStoreFile(paths));
    readOnly = true;
  }
  try {
    return await use(store, readOnly);
  } finally {
    store.close();
  }
}

/** Whether `error` says a folder or file cannot be written (read-only, no permission). */
function cannotWrite(error: unknown): boolean {
  if (error instanceof Deno.errors.PermissionDenied) return true;
  return /read-only file system|os error 30|readonly database|unable to open database file/i
    .test(error instanceof Error ? error.message : String(error));
}

/** `DD.MM.YYYY HH:MM` in `tz`. */
export function formatIn(epochMs: number, tz: string): string {
  const z = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(tz);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(z.day)}.${two(z.month)}.${z.year} ${two(z.hour)}:${two(z.minute)}`;
}
