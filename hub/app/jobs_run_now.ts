/**
 * `agent jobs run NAME` and the dashboard's Run now: one run now, exactly as the hub
 * runs a slot (the same `JobRuns`: claim, ceilings, the job log, the answer's delivery
 * written pending with the result), under a slot id of its own (`<name>@now-<ISO
 * instant>`) so it never takes a scheduled slot. In the hub's process Run now uses the
 * hub's own runs (its store, its delivery worker); `agent jobs run` opens its own and
 * sends the answer once from here (what cannot be sent now a running hub sends). Runs
 * in any processes at once never overlap nor pass the job's day: the claim and the day's
 * hold are rows in SQLite. With a cloud spine the slot is claimed and settled there like
 * a scheduled one, so a run by hand counts in the job's day on both hubs.
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
import { type JobDefinition, JobFileError, jobMcpTools, parseJobFile } from "../jobs/definition.ts";
import { startMcpServers } from "./mcp_servers.ts";
import { jobFile } from "../jobs/files.ts";
import { JobRuns, type RunOutcome } from "../jobs/mod.ts";
import type { HubService } from "../channels/contract.ts";
import type { JobsService } from "./jobs_service.ts";
import { jobDeliverySinks } from "./jobs_delivery.ts";
import { openMemory } from "./memory_store.ts";

/** Options for {@linkcode runJobNow}. */
export interface RunJobNowOptions {
  paths: AgentPaths;
  config: AgentConfig;
  env: Record<string, string>;
  lang: Lang;
  logger: Logger;
}

/** Runs job `name` once now, in this process. */
export async function runJobNow(options: RunJobNowOptions, name: string): Promise<RunOutcome> {
  const { paths, config, lang, logger } = options;
  const job = await readJob(options, name);
  const ledger = Ledger.openForCalls(paths.ledgerFile);
  const events = fileEventSink(paths.netDir);
  let runs: JobRuns | undefined;
  // The MCP servers start only for a job that lists some of their tools.
  const mcp = jobMcpTools(job.mcp).length === 0
    ? undefined
    : await startMcpServers({ config, env: options.env, paths, lang, logger });
  const memory = openMemory(config, paths, lang, logger);
  try {
    runs = await JobRuns.open({
      config,
      env: options.env,
      paths,
      lang,
      logger,
      ledger,
      tools: [
        ...await enabledTools(await loadComponents(config, paths), config.tools),
        ...(mcp?.tools() ?? []),
      ],
      memory,
      events,
      delivery: jobDeliverySinks({ config, env: options.env, events, netDir: paths.netDir }),
      sendTimeoutMs: 15_000,
    });
    const outcome = await runs.runNow(job);
    // Sent once from here; a send that fails stays pending for the hub to try again.
    await runs.delivery.once();
    return outcome;
  } finally {
    await runs?.close();
    await mcp?.close();
    memory?.close();
    ledger.close();
  }
}

/**
 * Run now in the hub's process: on the runs of its jobs service (among `services`), or in
 * runs of its own when the hub has none.
 */
export async function runJobNowIn(
  services: readonly HubService[],
  options: RunJobNowOptions,
  name: string,
): Promise<RunOutcome> {
  const hub = services.find((c): c is JobsService => "runNow" in c);
  if (hub === undefined) return await runJobNow(options, name);
  return await hub.runNow(await readJob(options, name));
}

/** Job `name`'s file, read and checked; a missing or bad file is the user's sentence. */
async function readJob(options: RunJobNowOptions, name: string): Promise<JobDefinition> {
  const { paths, config, lang } = options;
  let text: string;
  try {
    text = await Deno.readTextFile(jobFile(paths, name));
  } catch {
    throw new UserError(t(lang, "no_job", { name }), 1);
  }
  try {
    return parseJobFile(name, text, { roles: Object.keys(config.models.roles), lang });
  } catch (error) {
    if (error instanceof JobFileError) throw new UserError(error.message, 1);
    throw error;
  }
}
