/**
 * Two hubs on one identity for the jobs' end-to-end tests: homes of their own (a priced
 * fake `fast` role, a free port) that name the same cloud spine on workerd
 * (`AGENT_SPINE_URL`, `AGENT_SPINE_TOKEN`), and `agent hub run` processes over them.
 *
 * @module
 */
import { spawnHubProcess } from "../_hub_process.ts";
import { CLOUD_TOKEN, setEnv } from "../cloud/_cloud.ts";
import { portHome, PRICED_FAST, query, writeJob } from "./_jobs.ts";

export { stopHub } from "./_jobs.ts";

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
