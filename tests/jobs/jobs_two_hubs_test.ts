/**
 * Two hubs on one identity (the local hub and the cloud brain: here an `agent hub run`
 * process and a hub in the test's process, homes of their own, each naming the same
 * cloud spine on workerd)
 * share each job's slots and its daily ceiling through the spine's job routes: a slot
 * runs on one of them only, and together they never pass `max_usd_per_day`, where each
 * alone would have run its own day's worth. The job paused at the ceiling on one hub is
 * paused on both (the spine's pause, which the other's next claim reads), and the owner
 * is told once (the spine says which hub tells). Both hubs run on one clock the test
 * steps (`AGENT_TEST_CLOCK`), a slot at a time, so the test does not hang on how long a
 * run takes on a busy machine.
 */
import assert from "node:assert/strict";
import { agent, cleanup } from "../cli/_run.ts";
import { CLOUD_TOKEN, cloudSpine } from "../cloud/_cloud.ts";
import { hub as hubRequest } from "../spine/_fixtures.ts";
import { query, rows, SLOW } from "./_jobs.ts";
import {
  logged,
  type PairHub,
  runHub,
  runHubHere,
  spineHome,
  stopHub,
  watching,
} from "./_two_hubs.ts";
import { until } from "../_poll.ts";
import { StepClock } from "./_clock.ts";

// One run costs $0.002 and may cost up to about $0.0031: the day allows two runs.
const TICK =
  "schedule: '* * * * * *'\nmax_usd_per_run: 0.005\nmax_usd_per_day: 0.0065\ndeliver: events";

/** Why `tick` is paused in `dir`'s job store (`undefined`: it is not, or no store yet). */
function paused(dir: string): string | undefined {
  try {
    return query<{ reason: string }>(dir, "SELECT reason FROM paused WHERE job = 'tick'")[0]
      ?.reason;
  } catch {
    return undefined; // The hub has not made its job store yet.
  }
}

Deno.test({
  name: "jobs: two hubs on one cloud spine run each slot once and never pass the daily ceiling",
  ...SLOW,
  async fn() {
    const { spine } = await cloudSpine();
    const hubs: PairHub[] = [];
    try {
      const a = await spineHome(spine.url, "tick", TICK);
      const b = await spineHome(spine.url, "tick", TICK);
      // Both hubs on one clock the test steps: a slot at a time, none overlapping.
      const clock = await StepClock.create(a);
      // A's hub in this process, B's a process (tests/jobs/_two_hubs.ts).
      hubs.push(runHub(b, clock.env));
      hubs.push(await runHubHere(a, clock.env));
      const seen = () => JSON.stringify([rows(a, "tick"), rows(b, "tick")]);
      await until(seen, () => watching(a, "tick") && watching(b, "tick"), { timeoutMs: 40_000 });
      // The day's ceiling reached on one hub pauses the job on both: the one refused a
      // slot pauses it on the spine, whose next claim on the other says so.
      const both = () => paused(a) !== undefined && paused(b) !== undefined;
      for (let i = 0; i < 20 && !both(); i++) {
        await clock.advance(1_000);
        const slot = clock.now() - 500;
        const before = [paused(a), paused(b)].join();
        await until(
          seen,
          () => logged([a, b], slot) || both() || [paused(a), paused(b)].join() !== before,
          { timeoutMs: 20_000 },
        );
      }
      assert.deepEqual([paused(a), paused(b)], ["day", "day"]);
      await Promise.all(hubs.map(stopHub));
      // `agent jobs list` on either home shows the pause both share.
      for (const dir of [a, b]) {
        const listed = await agent(["--home", dir, "jobs", "list", "--json"]);
        assert.equal(listed.code, 0, listed.stderr);
        const listing = JSON.parse(listed.stdout);
        assert.equal(listing.pauses, "shared");
        assert.equal(listing.jobs[0].paused, "day");
      }
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
        // A hub that paused quietly and delivered nothing has written no event at all.
        const text = await Deno.readTextFile(`${dir}/data/net/events.jsonl`).catch(() => "");
        const lines = text.split("\n");
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
      await Promise.all(hubs.map(stopHub));
      await spine.stop();
      await cleanup();
    }
  },
});
