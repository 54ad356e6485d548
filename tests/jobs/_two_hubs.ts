/**
 * Two hubs on one identity for the jobs' end-to-end tests: homes of their own (a priced
 * fake `fast` role, a free port) that name the same cloud spine on workerd
 * (`AGENT_SPINE_URL`, `AGENT_SPINE_TOKEN`), and `agent hub run` processes over them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { agent, tempHome } from "../cli/_run.ts";
import { CLOUD_TOKEN, setEnv } from "../cloud/_cloud.ts";
import { PRICED_FAST, writeJob } from "./_jobs.ts";
import { freePort } from "../_port.ts";
import { spawnHubProcess, stopHubProcess } from "../_hub_process.ts";

/** A home naming the spine at `spineUrl`, with job `name` whose front matter is `front`. */
export async function spineHome(spineUrl: string, name: string, front: string): Promise<string> {
  const dir = await tempHome();
  const r = await agent(["--home", dir, "init", "--yes", "--provider", "fake"]);
  assert.equal(r.code, 0, r.stderr);
  let toml = await Deno.readTextFile(`${dir}/agent.toml`);
  toml = toml.replace(/^port = \d+$/m, `port = ${freePort()}`);
  for (const [from, to] of PRICED_FAST) toml = toml.replace(from, to);
  await Deno.writeTextFile(`${dir}/agent.toml`, toml);
  await setEnv(dir, { AGENT_SPINE_URL: spineUrl, AGENT_SPINE_TOKEN: CLOUD_TOKEN });
  await writeJob(dir, name, front);
  return dir;
}

/** `agent --home DIR hub run`, its output dropped. */
export function runHub(dir: string): Deno.ChildProcess {
  return spawnHubProcess(dir);
}

/** Stops a hub (SIGTERM) and waits for it; one already gone is fine. */
export async function stopHub(child: Deno.ChildProcess): Promise<void> {
  await stopHubProcess(child);
}
