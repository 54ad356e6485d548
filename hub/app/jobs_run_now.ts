/**
 * `agent jobs run NAME`: one run now, in this process, exactly as the hub runs a slot
 * (the ceilings, the job log, the answer's delivery written pending with the result
 * and sent from here once; what cannot be sent now a running hub sends), under a slot
 * id of its own (`<name>@now-<ISO instant>`) so it never takes a scheduled slot. With
 * a cloud spine the slot is claimed and settled there like a scheduled one, so a run
 * by hand counts in the job's day on both hubs and is refused when the day is spent.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import { enabledTools } from "../tools/enabled.ts";
import { loadComponents } from "./components.ts";
import { fileEventSink } from "../events/mod.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import { Ledger } from "../ledger/mod.ts";
import type { AgentPaths } from "../paths.ts";
import { UserError } from "../user_error.ts";
import { t } from "../jobs/_messages.ts";
import { JobFileError, parseJobFile } from "../jobs/definition.ts";
import { jobDesks } from "../jobs/desks.ts";
import { jobFile, jobStoreFile } from "../jobs/files.ts";
import { personaChars } from "../jobs/estimate.ts";
import { runJob, type RunOutcome } from "../jobs/run.ts";
import { JobStore } from "../jobs/store.ts";
import { DeliveryWorker } from "../jobs/delivery.ts";
import { processAlive } from "../process_alive.ts";
import { jobDeliverySinks } from "./jobs_delivery.ts";
import { sharedSlots } from "./jobs_shared_slots.ts";

/** Options for {@linkcode runJobNow}. */
export interface RunJobNowOptions {
  paths: AgentPaths;
  config: AgentConfig;
  env: Record<string, string>;
  lang: Lang;
  logger: Logger;
}

/** Runs job `name` once now. */
export async function runJobNow(options: RunJobNowOptions, name: string): Promise<RunOutcome> {
  const { paths, config, lang, logger } = options;
  let text: string;
  try {
    text = await Deno.readTextFile(jobFile(paths, name));
  } catch {
    throw new UserError(t(lang, "no_job", { name }), 1);
  }
  let job;
  try {
    job = parseJobFile(name, text, { roles: Object.keys(config.models.roles), lang });
  } catch (error) {
    if (error instanceof JobFileError) throw new UserError(error.message, 1);
    throw error;
  }
  const ledger = Ledger.openForCalls(paths.ledgerFile);
  await Deno.mkdir(paths.dataDir, { recursive: true, mode: 0o700 });
  const store = JobStore.open(jobStoreFile(paths));
  const tools = enabledTools(await loadComponents(config, paths));
  const desks = jobDesks({
    config,
    env: options.env,
    paths,
    lang,
    logger,
    ledger,
    tools: await tools,
  });
  const events = fileEventSink(paths.netDir);
  const { sinks, chats } = jobDeliverySinks({
    config,
    env: options.env,
    events,
    netDir: paths.netDir,
  });
  const delivery = new DeliveryWorker({
    store: store.deliveries,
    sinks,
    lang,
    logger,
    alive: processAlive,
    now: Date.now,
    sendTimeoutMs: 15_000,
  });
  const slots = sharedSlots({ env: options.env, store, logger });
  try {
    const now = Date.now();
    const outcome = await runJob(
      {
        config,
        lang,
        logger,
        ledger,
        store,
        desk: desks.desk,
        events,
        chats,
        ...(slots === undefined ? {} : { slots }),
        systemChars: await personaChars(paths.personaDir),
        now: Date.now,
      },
      job,
      now,
      { id: `${name}@now-${new Date(now).toISOString()}` },
    );
    // Sent once from here; a send that fails stays pending for the hub to try again.
    await delivery.once();
    return outcome;
  } finally {
    await desks.close();
    store.close();
    ledger.close();
  }
}
