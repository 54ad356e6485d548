/**
 * A pause shared by two hubs on one identity (an `agent hub run` process and a hub in
 * the test's process, homes of their own, naming the same cloud spine on workerd): `agent jobs pause --all` on
 * home A stops the next slot on home B as well, `agent jobs list` on B shows it, and
 * `agent jobs resume --all` on B resumes A. The spine's claim refuses a paused job in
 * the statement that writes the slot, so neither hub asks anything more per slot. Both
 * hubs run on one clock the test steps (`AGENT_TEST_CLOCK`): no waiting for seconds to pass.
 */
import assert from "node:assert/strict";
import { agent, cleanup } from "../cli/_run.ts";
import { cloudSpine } from "../cloud/_cloud.ts";
import { query, SLOW } from "./_jobs.ts";
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

const TICK = "schedule: '* * * * * *'\ndeliver: none";

/** The slot times of `tick`'s runs that went through in `dir` (none before its store). */
function ran(dir: string): number[] {
  try {
    return query<{ slot_ms: number }>(
      dir,
      "SELECT slot_ms FROM runs WHERE job = 'tick' AND state = 'ok' ORDER BY slot_ms",
    ).map((r) => r.slot_ms);
  } catch {
    return [];
  }
}

Deno.test({
  name: "jobs: pause --all on one hub stops the other's next slot; resume --all there resumes both",
  ...SLOW,
  async fn() {
    const { spine } = await cloudSpine();
    const hubs: PairHub[] = [];
    try {
      const a = await spineHome(spine.url, "tick", TICK);
      const b = await spineHome(spine.url, "tick", TICK);
      // Both hubs on one clock the test steps: a slot comes when the test moves it.
      const clock = await StepClock.create(a);
      // A's hub in this process, B's a process (tests/jobs/_two_hubs.ts).
      hubs.push(runHub(b, clock.env));
      hubs.push(await runHubHere(a, clock.env));
      const both = () => JSON.stringify({ a: ran(a), b: ran(b) });
      await until(
        () => "both hubs watch the job",
        () => watching(a, "tick") && watching(b, "tick"),
        { timeoutMs: 40_000 },
      );
      /** One slot: the clock a second on, then both hubs' word on it. */
      const step = async () => {
        await clock.advance(1_000);
        const slot = clock.now() - 500;
        await until(both, () => logged([a, b], slot), { timeoutMs: 20_000 });
      };
      // Whichever hub claims a slot first runs it; step until each has run one.
      for (let i = 0; i < 30 && !(ran(a).length > 0 && ran(b).length > 0); i++) await step();
      assert.ok(ran(a).length > 0 && ran(b).length > 0, both());

      const paused = await agent(["--home", a, "jobs", "pause", "--all"]);
      assert.equal(paused.code, 0, paused.stderr);
      assert.equal(
        paused.stdout,
        "Paused all jobs; no job runs until 'agent jobs resume --all'.\n",
      );
      const pausedAt = clock.now();
      // B never paused anything: its next slot's claim is refused by the spine, which B
      // mirrors; from then on neither hub runs the job (a paused slot leaves no row).
      await clock.advance(1_000);
      await until(
        () => "B saw the pause at its next slot",
        () => query(b, "SELECT job FROM paused WHERE job = '*'").length === 1,
        { timeoutMs: 20_000 },
      );
      await clock.advance(1_000);
      await new Promise((resolve) => setTimeout(resolve, 400));
      for (const dir of [a, b]) {
        assert.deepEqual(ran(dir).filter((ms) => ms > pausedAt), [], both());
      }
      assert.equal(query(b, "SELECT job FROM paused WHERE job = '*'").length, 1);
      const listed = await agent(["--home", b, "jobs", "list", "--json"]);
      assert.equal(listed.code, 0, listed.stderr);
      const listing = JSON.parse(listed.stdout);
      assert.equal(listing.all_paused, true);
      assert.equal(listing.pauses, "shared");
      const lines = await agent(["--home", b, "jobs", "list"]);
      assert.match(lines.stdout, /^All jobs are paused\.\n/);

      // Resumed on B: A runs again, and its own copy of the pause is lifted.
      const resumed = await agent(["--home", b, "jobs", "resume", "--all"]);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(resumed.stdout, "Resumed all jobs.\n");
      const resumedAt = clock.now();
      for (let i = 0; i < 30 && !ran(a).some((ms) => ms > resumedAt); i++) await step();
      assert.ok(ran(a).some((ms) => ms > resumedAt), both());
      await until(() => "A paused", () => query(a, "SELECT job FROM paused").length === 0, {
        timeoutMs: 5_000,
      });
    } finally {
      await Promise.all(hubs.map(stopHub));
      await spine.stop();
      await cleanup();
    }
  },
});
