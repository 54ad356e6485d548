/**
 * The job scheduler as a hub service: started with the hub (`agent hub run`, `agent
 * cloud run`), stopped with it, with a `jobs` block in `/status`. Its turns run on
 * desks of their own (no tools, or tier 1 only) that share the hub's router and
 * ledger; notices go to the hub's owner-event bus, answers through the delivery worker
 * (to the bus and the messenger's chats, never lost, never doubled). In cloud mode the next
 * due time goes to the spine's state (`jobs.next`), whose cron wakes the brain for it,
 * and the answers and the job log are written to the spine as well (`spine_outbox.ts`;
 * an answer's event is published before its rows go, so a new container does not publish
 * it again): a brain that starts in an empty container reads them back before it runs or
 * sends.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import { SpineHttp } from "../spine_http/mod.ts";
import type { HubContext, HubService } from "../channels/contract.ts";
import { enabledTools } from "../tools/enabled.ts";
import { JobRunner } from "../jobs/runner.ts";
import { ALL_JOBS } from "../jobs/pause_store.ts";
import { type JobDefinition, JobRuns, type RunOutcome } from "../jobs/mod.ts";
import { SpineOutbox } from "../jobs/spine_outbox.ts";
import { jobDeliverySinks } from "./jobs_delivery.ts";

/** The scheduler service, and the hub's Run now on the same runs. */
export interface JobsService extends HubService {
  /** Runs `job` once now on the hub's own runs (the dashboard's Run now). */
  runNow(job: JobDefinition): Promise<RunOutcome>;
}

/** The scheduler service. */
export async function jobsService(hub: HubContext): Promise<JobsService> {
  // Cloud mode: the container's disk goes with it; the spine keeps answers and log too.
  const outbox = hub.cloud === undefined ? undefined : new SpineOutbox({
    url: hub.cloud.url,
    token: hub.cloud.token,
    ...(hub.cloud.fetch ? { fetch: hub.cloud.fetch } : {}),
    warn: (line) => hub.logger.warn(line),
  });
  const runs = await JobRuns.open({
    config: hub.config,
    env: hub.env,
    paths: hub.paths,
    lang: hub.lang,
    logger: hub.logger,
    ledger: hub.ledger,
    tools: [...await enabledTools(hub.registry, hub.config.tools), ...(hub.mcp?.tools() ?? [])],
    router: hub.router,
    memory: hub.memory,
    events: hub.events,
    delivery: jobDeliverySinks({
      config: hub.config,
      env: hub.env,
      events: hub.events,
      netDir: hub.paths.netDir,
    }),
    cloud: hub.cloud,
    now: () => hub.clock.now(),
    ...(outbox === undefined ? {} : { deliveryChanged: (row) => outbox.delivery(row) }),
  });
  const { store, delivery } = runs;
  // The answer's event is published before the spine hears of the answer: see `follow`.
  outbox?.follow(store, delivery);
  const runner = new JobRunner(runs.ctx, { paths: hub.paths, clock: hub.clock });
  const cloud = hub.cloud;
  let told: Promise<void> = Promise.resolve();
  if (cloud !== undefined) {
    // Cloud mode: the spine's cron wakes this brain before its next job is due.
    const spine = new SpineHttp(cloud.url, {
      token: cloud.token,
      timeoutMs: 10_000,
      ...(cloud.fetch ? { fetch: cloud.fetch } : {}),
    });
    runner.onNext = (nextMs) => {
      told = told.then(async () => {
        try {
          await spine.request("/hub/state/jobs.next", {
            method: "PUT",
            json: { value: { next_ms: nextMs ?? null } },
            answer: "none",
          });
        } catch (error) {
          hub.logger.warn(`jobs: cannot tell the spine the next due time: ${errorMessage(error)}`);
        }
      });
    };
  }
  return {
    name: "jobs",
    async start() {
      if (outbox !== undefined) {
        // Before any slot runs or answer goes: a new container's store is empty.
        try {
          const read = await outbox.pull(store, hub.clock.now());
          hub.logger.info(
            `jobs: ${read.deliveries} pending answer(s) and ${read.runs} log entr(ies) read from the spine`,
          );
        } catch (error) {
          hub.logger.warn(
            `jobs: cannot read the pending answers and the job log from the spine: ${
              errorMessage(error)
            }; this container's own are used`,
          );
        }
      }
      await runner.start();
      // Answers a stopped hub left pending go out first.
      delivery.start();
    },
    async stop() {
      await runner.stop();
      await delivery.stop();
      await outbox?.close();
      await told;
      await runs.close();
    },
    runNow: (job) => runs.runNow(job),
    status() {
      const paused = store.pauses.all();
      return {
        count: runner.size,
        paused: [...paused.keys()].filter((name) => name !== ALL_JOBS).length,
        all_paused: paused.has(ALL_JOBS),
        // Answers written and not yet sent (a refusing Bot API, a hub that just started).
        deliveries_pending: store.deliveries.pendingCount(),
      };
    },
  };
}
