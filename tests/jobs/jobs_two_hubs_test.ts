/**
 * Two hubs on one identity (the local hub and the cloud brain: here two `agent hub run`
 * processes with homes of their own, each naming the same cloud spine on workerd)
 * share each job's slots and its daily ceiling through the spine's job routes: a slot
 * runs on one of them only, and together they never pass `max_usd_per_day`, where each
 * alone would have run its own day's worth. Both pause the job at the ceiling, and the
 * owner is told once (the spine says which hub tells).
 */
import assert from "node:assert/strict";
import { AGENT_FLAGS } from "../_agent_flags.ts";
import { agent, cleanup, tempDir } from "../cli/_run.ts";
import { CLOUD_TOKEN, cloudSpine, setEnv } from "../cloud/_cloud.ts";
import { hub as hubRequest } from "../spine/_fixtures.ts";
import { freePort } from "../spine/_harness.ts";
import { PRICED_FAST, query, rows, SLOW, writeJob } from "./_jobs.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

async function home(spineUrl: string): Promise<string> {
  const dir = await tempDir();
  const r = await agent(["--home", dir, "init", "--yes", "--provider", "fake"]);
  assert.equal(r.code, 0, r.stderr);
  let toml = await Deno.readTextFile(`${dir}/agent.toml`);
  toml = toml.replace(/^port = \d+$/m, `port = ${freePort()}`);
  for (const [from, to] of PRICED_FAST) toml = toml.replace(from, to);
  await Deno.writeTextFile(`${dir}/agent.toml`, toml);
  await setEnv(dir, { AGENT_SPINE_URL: spineUrl, AGENT_SPINE_TOKEN: CLOUD_TOKEN });
  // One run costs $0.002 and may cost up to about $0.0031: the day allows two runs.
  await writeJob(
    dir,
    "tick",
    "schedule: '* * * * * *'\nmax_usd_per_run: 0.005\nmax_usd_per_day: 0.0065\ndeliver: events",
  );
  return dir;
}

function runHub(dir: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...AGENT_FLAGS, `${ROOT}cli/main.ts`, "--home", dir, "hub", "run"],
    env: { NO_COLOR: "1" },
    stdout: "null",
    stderr: "null",
  }).spawn();
}

async function stop(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch { /* gone */ }
  await child.status;
}

function paused(dir: string): boolean {
  try {
    return rows(dir, "tick").some((r) => r.state === "refused");
  } catch {
    return false; // The hub has not made its job store yet.
  }
}

Deno.test({
  name: "jobs: two hubs on one cloud spine run each slot once and never pass the daily ceiling",
  ...SLOW,
  async fn() {
    const { spine } = await cloudSpine();
    const hubs: Deno.ChildProcess[] = [];
    try {
      const a = await home(spine.url);
      const b = await home(spine.url);
      hubs.push(runHub(a), runHub(b));
      // Both reach the ceiling: each is refused a slot and pauses its job.
      const deadline = Date.now() + 40_000;
      while (!(paused(a) && paused(b))) {
        if (Date.now() > deadline) {
          throw new Error(`not paused: ${JSON.stringify([rows(a, "tick"), rows(b, "tick")])}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await Promise.all(hubs.map(stop));
      const ran = [...rows(a, "tick"), ...rows(b, "tick")].filter((r) => r.state === "ok");
      // Two runs in all (each hub alone would have run two): never three.
      assert.equal(ran.length, 2, JSON.stringify(ran));
      assert.equal(new Set(ran.map((r) => r.slot_id)).size, ran.length);
      const spent = ran.reduce((sum, r) => sum + r.usd, 0);
      assert.ok(spent <= 0.0065 + 1e-9, `spent ${spent}`);
      // Each slot ran on one hub only: the other logged it as taken.
      const taken = [...rows(a, "tick"), ...rows(b, "tick")].filter((r) => r.state === "taken");
      assert.ok(taken.length >= 1, "no slot was taken by the other hub");
      // Both paused their copy at the day's ceiling; the owner heard it once, from one hub.
      const told = [];
      for (const dir of [a, b]) {
        const lines = (await Deno.readTextFile(`${dir}/data/net/events.jsonl`)).split("\n");
        for (const line of lines) {
          if (line.trim() === "") continue;
          const event = JSON.parse(line);
          if (event.type === "job.notice" && event.text.startsWith("Job tick is paused")) {
            told.push(event.text);
          }
        }
      }
      assert.equal(told.length, 1, JSON.stringify(told));
      assert.match(told[0]!, /max_usd_per_day of \$0\.0065/);
      // The spine settled every claim to its cost: nothing of either hub in flight.
      for (const dir of [a, b]) {
        const [id] = query<{ value: string }>(dir, "SELECT value FROM meta WHERE key = 'hub_id'");
        assert.match(id?.value ?? "", /^local-[0-9a-f]{8}$/);
        const running = await hubRequest(
          spine.url,
          CLOUD_TOKEN,
          `/hub/jobs/running?hub=${id!.value}`,
        );
        assert.equal(running.status, 200);
        assert.deepEqual(running.body.slots, []);
      }
    } finally {
      await Promise.all(hubs.map(stop));
      await spine.stop();
      await cleanup();
    }
  },
});
