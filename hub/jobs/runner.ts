/**
 * The hub's job scheduler: reads `persona/jobs/` (again whenever a file changes),
 * keeps one timer for the earliest next slot of all jobs, and runs each slot through
 * {@linkcode runJob}. On start a slot a stopped hub left `running` is settled as
 * `interrupted` (not run again). On start (and after the machine slept) the slots that passed
 * unrun are found from the job store: each job's newest recorded slot or the time it
 * was first seen. Those are recorded as `missed` and told to the owner; with
 * `missed: once` the newest of them runs once.
 *
 * Its timer runs on a {@linkcode Clock} (the machine's, or one a test drives), the
 * same clock the runs' `now` reads.
 *
 * Idle, it does nothing but wait on one timer: the folder is watched (a change is
 * read within a fraction of a second), and looked at every `reloadMs` only when it
 * cannot be watched (it does not exist yet). A job keeps its definition and its next
 * slot; its croner schedule is made again when the slot comes.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { AgentPaths } from "../paths.ts";
import type { JobDefinition } from "./definition.ts";
import { jobsDir, loadJobs } from "./files.ts";
import { processAlive } from "../process_alive.ts";
import { type Clock, SYSTEM_CLOCK } from "../clock.ts";
import {
  type JobRunContext,
  runJob,
  type RunOutcome,
  settleOrphans,
  settleShared,
  syncPauses,
  tellMissed,
} from "./run/mod.ts";
import { nextSlot, scheduleOf, slotId, slotsBetween } from "./schedule.ts";
import { ALL_JOBS } from "./pause_store.ts";

/** Options for {@linkcode JobRunner}. */
export interface JobRunnerOptions {
  paths: AgentPaths;
  /** How often the job files are looked at again. @default 15000 */
  reloadMs?: number;
  /**
   * A slot whose turn comes later than this after its time counts as missed (the
   * hub was down or the machine slept). @default 60000
   */
  graceMs?: number;
  /** Whether a process id runs (a slot a dead one left `running` is settled). */
  alive?: (pid: number) => boolean | undefined;
  /** The clock slots come due by; the context's `now` must read it. @default SYSTEM_CLOCK */
  clock?: Clock;
}

interface Watched {
  job: JobDefinition;
  /** Slots up to this instant were handled. */
  handled: number;
  next: number | undefined;
}

/** The scheduler. */
export class JobRunner {
  #ctx: JobRunContext;
  #o: JobRunnerOptions;
  #jobs = new Map<string, Watched>();
  #stamps = new Map<string, number>();
  #clock: Clock;
  /** Cancels the armed timer. */
  #timer: (() => void) | undefined;
  #running = new Set<Promise<unknown>>();
  /** What {@linkcode idle} waits for: the running set without the folder's watch loop. */
  #busy = new Set<Promise<unknown>>();
  #stopped = false;
  #lastLoad = 0;
  #ticking = false;
  #watcher: Deno.FsWatcher | undefined;
  #dirty = false;
  #told: number | undefined | null = null;
  /**
   * Told the earliest next slot of all jobs (`undefined`: none) whenever it changes:
   * in cloud mode the spine's cron wakes the brain before it.
   */
  onNext: ((nextMs: number | undefined) => void) | undefined;
  /** Called after each slot ends (tests, the benchmark). */
  onRun: ((name: string, slotMs: number, outcome: RunOutcome) => void) | undefined;

  /** Makes the scheduler; {@linkcode start} starts it. */
  constructor(ctx: JobRunContext, options: JobRunnerOptions) {
    this.#ctx = ctx;
    this.#o = options;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
  }

  /** How many jobs are watched. */
  get size(): number {
    return this.#jobs.size;
  }

  /**
   * Settles the slots a stopped hub left running, reads the jobs, handles the slots
   * missed while no hub ran, and arms the timer.
   */
  async start(): Promise<void> {
    await settleOrphans(this.#ctx, this.#o.alive ?? processAlive);
    this.#track(
      settleShared(this.#ctx).catch((error) =>
        this.#ctx.logger.warn(`jobs: cannot settle the shared slots: ${errorMessage(error)}`)
      ),
    );
    // The pauses both hubs share, read into the store (for `/status` and missed slots;
    // each claim reads them again), in the background like the settles.
    this.#track(
      syncPauses(this.#ctx.store, this.#ctx.slots, this.#ctx.now()).catch((error) =>
        this.#ctx.logger.warn(`jobs: cannot read the shared pauses: ${errorMessage(error)}`)
      ),
    );
    this.#watch();
    await this.#load(true);
    this.#tick();
  }

  /** Waits until nothing it started is in progress (a test's step after moving the clock). */
  async idle(): Promise<void> {
    while (this.#busy.size > 0) await Promise.allSettled([...this.#busy]);
  }

  /** Stops the timer and waits for the runs in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#timer?.();
    try {
      this.#watcher?.close();
    } catch { /* closed already */ }
    this.#watcher = undefined;
    await Promise.allSettled([...this.#running]);
  }

  /** Reads the job files again when one changed; logs the files that cannot be used. */
  async #load(force = false): Promise<void> {
    const now = this.#ctx.now();
    this.#lastLoad = now;
    if (!force && !(await this.#changed())) return;
    const { jobs, errors } = await loadJobs(this.#o.paths, this.#ctx.config, this.#ctx.lang);
    for (const line of errors) this.#ctx.logger.warn(`jobs: ${line}`);
    const seen = new Set<string>();
    for (const job of jobs) {
      seen.add(job.name);
      const old = this.#jobs.get(job.name);
      if (old !== undefined && sameJob(old.job, job)) continue;
      const { store } = this.#ctx;
      const handled = old?.handled ??
        Math.max(store.since(job.name, now), store.lastSlot(job.name) ?? 0);
      const next = nextSlot(scheduleOf(job.schedule, job.tz), handled);
      this.#jobs.set(job.name, { job, handled, next });
    }
    for (const name of [...this.#jobs.keys()]) if (!seen.has(name)) this.#jobs.delete(name);
  }

  /** Whether a file in `persona/jobs/` was added, removed or changed since last look. */
  async #changed(): Promise<boolean> {
    if (this.#watcher !== undefined) {
      const dirty = this.#dirty;
      this.#dirty = false;
      return dirty;
    }
    this.#watch();
    const stamps = new Map<string, number>();
    try {
      for await (const entry of Deno.readDir(jobsDir(this.#o.paths))) {
        if (!entry.isFile || !entry.name.endsWith(".md")) continue;
        const info = await Deno.stat(`${jobsDir(this.#o.paths)}/${entry.name}`);
        stamps.set(entry.name, info.mtime?.getTime() ?? 0);
      }
    } catch { /* no folder: no jobs */ }
    const changed = stamps.size !== this.#stamps.size ||
      [...stamps].some(([name, ms]) => this.#stamps.get(name) !== ms);
    this.#stamps = stamps;
    return changed;
  }

  /** Watches the folder (when it exists): any change marks the jobs to be read again. */
  #watch(): void {
    if (this.#stopped || this.#watcher !== undefined) return;
    let watcher: Deno.FsWatcher;
    try {
      watcher = Deno.watchFs(jobsDir(this.#o.paths), { recursive: false });
    } catch {
      return; // No folder yet: looked at every reloadMs until there is one.
    }
    this.#watcher = watcher;
    const loop = (async () => {
      try {
        for await (const _ of watcher) {
          this.#dirty = true;
          // Read soon, once the writer is done (an editor writes in steps).
          this.#lastLoad = -Infinity;
          this.#timer?.();
          // Real time: an editor's steps take real time, whatever the job clock says.
          const id = setTimeout(() => this.#tick(), 200);
          this.#timer = () => clearTimeout(id);
        }
      } catch { /* closed */ }
      if (this.#watcher === watcher) this.#watcher = undefined;
    })();
    this.#track(loop, false);
  }

  #arm(): void {
    if (this.#stopped) return;
    const now = this.#ctx.now();
    let earliest: number | undefined;
    for (const w of this.#jobs.values()) {
      if (w.next !== undefined && (earliest === undefined || w.next < earliest)) {
        earliest = w.next;
      }
    }
    if (earliest !== this.#told) {
      this.#told = earliest;
      try {
        this.onNext?.(earliest);
      } catch { /* a listener's failure never stops the scheduler */ }
    }
    const reload = this.#lastLoad + (this.#o.reloadMs ?? 15_000);
    const wake = earliest === undefined ? reload : Math.min(earliest, reload);
    this.#timer?.();
    this.#timer = this.#clock.after(Math.max(0, wake - now), () => this.#tick());
  }

  #tick(): void {
    if (this.#stopped || this.#ticking) return;
    this.#ticking = true;
    const work = this.#step().catch((error) => {
      this.#ctx.logger.error(`jobs: ${errorMessage(error)}`);
    }).finally(() => {
      this.#ticking = false;
      this.#arm();
    });
    this.#track(work);
  }

  async #step(): Promise<void> {
    const now = this.#ctx.now();
    if (now - this.#lastLoad >= (this.#o.reloadMs ?? 15_000)) await this.#load();
    const grace = this.#o.graceMs ?? 60_000;
    for (const w of this.#jobs.values()) {
      if (w.next === undefined || w.next > now) continue;
      const cron = scheduleOf(w.job.schedule, w.job.tz);
      const { slots, count } = slotsBetween(cron, w.handled, now, 2);
      w.handled = now;
      w.next = nextSlot(cron, now);
      const newest = slots[slots.length - 1];
      if (newest === undefined) continue;
      const due = now - newest <= grace;
      const missed = due ? count - 1 : count;
      const newestMissed = due ? slots[slots.length - 2] : newest;
      if (missed > 0 && newestMissed !== undefined) {
        // A slot due now runs anyway; older missed ones are not run besides it.
        await this.#missed(w.job, newestMissed, missed, !due && w.job.missed === "once");
      }
      if (due) this.#track(this.#run(w.job, newest, false));
    }
  }

  /**
   * Records the newest missed slot (run once now when `runOnce`, else as `missed`) and
   * tells the owner once.
   */
  async #missed(
    job: JobDefinition,
    slotMs: number,
    count: number,
    runOnce: boolean,
  ): Promise<void> {
    const { store } = this.#ctx;
    const paused = store.pauses.all();
    if (paused.has(ALL_JOBS) || paused.has(job.name)) return;
    if (!runOnce && !store.missed(slotId(job.name, slotMs), job.name, slotMs, this.#ctx.now())) {
      return;
    }
    await tellMissed(this.#ctx, job, count, slotMs);
    if (runOnce) this.#track(this.#run(job, slotMs, true));
  }

  async #run(job: JobDefinition, slotMs: number, missed: boolean): Promise<void> {
    try {
      const outcome = await runJob(this.#ctx, job, slotMs, { missed });
      this.onRun?.(job.name, slotMs, outcome);
    } catch (error) {
      this.#ctx.logger.error(`jobs: ${job.name}: ${errorMessage(error)}`);
    }
  }

  #track(work: Promise<unknown>, busy = true): void {
    this.#running.add(work);
    if (busy) this.#busy.add(work);
    work.finally(() => {
      this.#running.delete(work);
      this.#busy.delete(work);
    });
  }
}

function sameJob(a: JobDefinition, b: JobDefinition): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
