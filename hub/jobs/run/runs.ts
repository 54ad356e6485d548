/**
 * The jobs of one process, opened once: the job store, the desks a job's turns run on,
 * the delivery worker, the slots shared with the identity's other hub and the clock,
 * behind one object whose `run` and `runNow` are the only way any caller runs a job:
 * the hub's scheduler, the cloud brain (the same scheduler in its container), the
 * dashboard's Run now (the hub's own object) and `agent jobs run` (an object of its own
 * process). Where answers go to a messenger is handed in by the app, which knows it;
 * nothing here reaches back up for it.
 *
 * @module
 */
import type { ModelRouter } from "../../router/mod.ts";
import type { AgentConfig } from "../../config/types.ts";
import type { OwnerEventSink } from "../../events/mod.ts";
import type { Lang } from "../../i18n.ts";
import type { Logger } from "../../log.ts";
import type { Ledger } from "../../ledger/mod.ts";
import type { AgentPaths } from "../../paths.ts";
import { processAlive } from "../../process_alive.ts";
import type { AgentTool } from "../../tools/mod.ts";
import type { JobDefinition } from "../definition.ts";
import { type DeliverySinks, DeliveryWorker } from "../delivery.ts";
import type { DeliveryRow } from "../delivery_store.ts";
import type { MemoryStore } from "../../memory/mod.ts";
import { personaChars } from "../estimate.ts";
import { jobStoreFile } from "../files.ts";
import { JobStore } from "../store.ts";
import type { JobRunContext, RunOutcome } from "./context.ts";
import { runJob, type RunJobOptions, runNow } from "./run.ts";
import { sharedSlots } from "./shared_slots.ts";

/** Options for {@linkcode JobRuns.open}. */
export interface JobRunsOptions {
  config: AgentConfig;
  /** `.env` merged with the process environment (a cloud spine's variables). */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  logger: Logger;
  ledger: Ledger | undefined;
  /** The tools a job may be offered (tier 1 only ever is). */
  tools: readonly AgentTool[];
  /** The hub's router, to share (a failover told once). @default a new one */
  router?: ModelRouter | undefined;
  /** The memory store: a job is the owner's, so its turns read the owner's memories. */
  memory?: MemoryStore | undefined;
  /** Where notices and answers' events go. */
  events: OwnerEventSink;
  /** Where answers go (the messenger's sink is the app's) and the messenger chats. */
  delivery: { sinks: DeliverySinks; chats: readonly string[] };
  /** The cloud brain's own spine; absent for a local hub (its `.env` may name one). */
  cloud?: { url: string; token: string; fetch?: typeof fetch } | undefined;
  /** The clock runs and deliveries read. @default Date.now */
  now?: () => number;
  /** The longest one delivery send may take. @default 30000 */
  sendTimeoutMs?: number;
  /** Told each change of a delivery row (the cloud brain's outbox). */
  deliveryChanged?: (row: DeliveryRow) => Promise<unknown>;
}

/** The jobs of one process: {@linkcode JobRuns.open} opens them, `close()` closes them. */
export class JobRuns {
  /** What each run is handed. */
  readonly ctx: JobRunContext;
  /** The job store (the log, the pauses, the answers on their way). */
  readonly store: JobStore;
  /** Sends the answers the runs wrote pending. */
  readonly delivery: DeliveryWorker;
  #close: () => Promise<void>;

  private constructor(
    ctx: JobRunContext,
    delivery: DeliveryWorker,
    close: () => Promise<void>,
  ) {
    this.ctx = ctx;
    this.store = ctx.store;
    this.delivery = delivery;
    this.#close = close;
  }

  /** Opens the job store (creating the data folder) and everything a run needs. */
  static async open(o: JobRunsOptions): Promise<JobRuns> {
    await Deno.mkdir(o.paths.dataDir, { recursive: true, mode: 0o700 });
    const store = JobStore.open(jobStoreFile(o.paths));
    const now = o.now ?? Date.now;
    // The desk (the agent, its tools, zod) loads when jobs run, not for `agent jobs list`.
    const { jobDesks } = await import("../desks.ts");
    const desks = jobDesks({
      config: o.config,
      env: o.env,
      paths: o.paths,
      lang: o.lang,
      logger: o.logger,
      ledger: o.ledger,
      tools: o.tools,
      ...(o.router === undefined ? {} : { router: o.router }),
      memory: o.memory,
    });
    const delivery = new DeliveryWorker({
      store: store.deliveries,
      sinks: o.delivery.sinks,
      lang: o.lang,
      logger: o.logger,
      alive: processAlive,
      now,
      ...(o.sendTimeoutMs === undefined ? {} : { sendTimeoutMs: o.sendTimeoutMs }),
      ...(o.deliveryChanged === undefined ? {} : { changed: o.deliveryChanged }),
    });
    const slots = sharedSlots({
      cloud: o.cloud,
      env: o.env,
      store,
      warn: (line) => o.logger.warn(line),
    });
    const ctx: JobRunContext = {
      config: o.config,
      lang: o.lang,
      logger: o.logger,
      ledger: o.ledger,
      store,
      desk: desks.desk,
      events: o.events,
      chats: o.delivery.chats,
      delivered: () => delivery.kick(),
      ...(slots === undefined ? {} : { slots }),
      systemChars: await personaChars(o.paths.personaDir),
      now,
    };
    return new JobRuns(ctx, delivery, async () => {
      await delivery.stop();
      await desks.close();
      store.close();
    });
  }

  /** Runs `job`'s slot at `slotMs` (the scheduler's way). */
  run(job: JobDefinition, slotMs: number, options: RunJobOptions = {}): Promise<RunOutcome> {
    return runJob(this.ctx, job, slotMs, options);
  }

  /** Runs `job` once now, in a slot of its own (`agent jobs run`, Run now). */
  runNow(job: JobDefinition): Promise<RunOutcome> {
    return runNow(this.ctx, job);
  }

  /** Stops the delivery worker, closes the desks and the store. */
  async close(): Promise<void> {
    await this.#close();
  }
}
