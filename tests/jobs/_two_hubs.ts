/**
 * Two hubs on one identity for the jobs' end-to-end tests: homes of their own (a priced
 * fake `fast` role, a free port) that name the same cloud spine on workerd
 * (`AGENT_SPINE_URL`, `AGENT_SPINE_TOKEN`), and the hubs over them: one an `agent hub run`
 * process, the other in the test's process as that command assembles it (`_home_hub.ts`).
 * The spine sees two hubs either way; a second process would load the agent again
 * (~1 CPU-second) for nothing the tests look at.
 *
 * @module
 */
import { spawnHubProcess, stopHubProcess } from "../_hub_process.ts";
import { type HomeHub, startHomeHub } from "../_home_hub.ts";
import { CLOUD_TOKEN, setEnv } from "../cloud/_cloud.ts";
import { portHome, PRICED_FAST, query, writeJob } from "./_jobs.ts";

/** A hub of the pair: a process, or one in the test's process. */
export type PairHub = Deno.ChildProcess | HomeHub;

/** Stops a hub of the pair (SIGTERM, or as SIGTERM would); one already stopped is fine. */
export async function stopHub(hub: PairHub): Promise<void> {
  if (hub instanceof Deno.ChildProcess) await stopHubProcess(hub);
  else await hub.stop();
}

/** A home naming the spine at `spineUrl`, with job `name` whose front matter is `front`. */
export async function spineHome(spineUrl: string, name: string, front: string): Promise<string> {
  const { home } = await portHome(PRICED_FAST);
  await setEnv(home, { AGENT_SPINE_URL: spineUrl, AGENT_SPINE_TOKEN: CLOUD_TOKEN });
  await writeJob(home, name, front);
  return home;
}

/** `agent --home DIR hub run` (with `env` besides), its output dropped. */
export function runHub(dir: string, env: Record<string, string> = {}): Deno.ChildProcess {
  return spawnHubProcess(dir, { env });
}

/** The hub of `dir` in the test's process (with `env` over its `.env`), once it listens. */
export function runHubHere(dir: string, env: Record<string, string> = {}): Promise<HomeHub> {
  return startHomeHub(dir, env);
}

/** Whether every home in `dirs` logged the slot at `slotMs` (ran it, or found it taken). */
export function logged(dirs: readonly string[], slotMs: number): boolean {
  return dirs.every((dir) => {
    try {
      return query(dir, "SELECT 1 FROM runs WHERE slot_ms = ? AND state <> 'running'", slotMs)
        .length > 0;
    } catch {
      return false; // The hub has not made its job store yet.
    }
  });
}

/** Whether the hub of `dir` watches `job` (its store has seen the job file). */
export function watching(dir: string, job: string): boolean {
  try {
    return query(dir, "SELECT job FROM seen WHERE job = ?", job).length === 1;
  } catch {
    return false;
  }
}
