// The scheduler on a clock the tests move: a slot comes due when the clock passes it,
// never by waiting for the machine's clock.
import assert from "node:assert/strict";
import { ManualClock } from "../clock.ts";
import { jobHome } from "./_testing.ts";
import { JobRunner } from "./runner.ts";
import { slotId } from "./schedule.ts";
import { ALL_JOBS } from "./pause_store.ts";

/** Half a second past a whole second: every-second slots come at each `advance(1000)`. */
const START = Date.UTC(2026, 0, 5, 7, 30, 0, 500);

/** Moves `clock` one second at a time, `times` times, letting each slot's run end. */
async function tick(clock: ManualClock, runners: JobRunner[], times = 1): Promise<void> {
  // What the runners started (a start's first look) ends first: their timers are armed.
  for (const runner of runners) await runner.idle();
  for (let i = 0; i < times; i++) {
    clock.advance(1_000);
    for (const runner of runners) await runner.idle();
  }
}

Deno.test("JobRunner runs each slot of an every-second job once, also with two hubs", async () => {
  const clock = new ManualClock(START);
  const home = await jobHome(undefined, { clock });
  const a = new JobRunner(home.ctx, { paths: home.paths, clock });
  const b = new JobRunner(home.second(), { paths: home.paths, clock });
  try {
    await home.write({ name: "tick", deliver: "events" });
    await Promise.all([a.start(), b.start()]);
    await tick(clock, [a, b], 3);
    await Promise.all([a.stop(), b.stop()]);
    await home.flush();
    const rows = home.store.log("tick");
    // Each of the three slots ran once: one hub ran it, the other found it claimed.
    assert.deepEqual(rows.map((r) => [r.slot_ms - START, r.state]), [
      [2_500, "ok"],
      [1_500, "ok"],
      [500, "ok"],
    ]);
    const results = home.events.filter((e) => e.type === "job.result");
    assert.equal(results.length, 3);
    assert.equal(new Set(results.map((e) => e.type === "job.result" && e.slot_id)).size, 3);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await home.close();
  }
});

Deno.test("JobRunner stops at the next slot once every job is paused", async () => {
  const clock = new ManualClock(START);
  const home = await jobHome(undefined, { clock });
  const runner = new JobRunner(home.ctx, { paths: home.paths, clock });
  try {
    await home.write({ name: "tick", deliver: "none" });
    await runner.start();
    await tick(clock, [runner]);
    assert.equal(home.store.log("tick").length, 1);
    home.store.pauses.pause(ALL_JOBS, "owner", clock.now());
    await tick(clock, [runner], 2);
    assert.equal(home.store.log("tick").length, 1);
    // The timer stays armed: resumed, the next slot runs.
    home.store.pauses.resume(ALL_JOBS);
    await tick(clock, [runner]);
    assert.equal(home.store.log("tick").length, 2);
  } finally {
    await runner.stop();
    await home.close();
  }
});

Deno.test("JobRunner runs a slot missed while no hub ran once on start (missed: once)", async () => {
  const clock = new ManualClock(START);
  const home = await jobHome(undefined, { clock });
  const runner = new JobRunner(home.ctx, { paths: home.paths, clock });
  try {
    // Hourly on the hour; watched since three and a half hours ago: 05, 06 and 07:00 passed.
    await home.write({ name: "hourly", schedule: "0 * * * *", missed: "once" });
    home.store.since("hourly", START - 3.5 * 3_600_000);
    await runner.start();
    await runner.idle();
    await runner.stop();
    const rows = home.store.log("hourly");
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.state, "ok");
    assert.equal(rows[0]?.missed, true);
    assert.equal(rows[0]?.slot_ms, Date.UTC(2026, 0, 5, 7));
    await home.flush();
    const notices = home.events.filter((e) => e.type === "job.notice");
    assert.equal(notices.length, 1);
    assert.equal(
      notices[0]!.text,
      "Job hourly missed 3 run(s) while no hub ran (last 05.01.2026 10:00); it runs once now.",
    );
    assert.equal(home.events.filter((e) => e.type === "job.result").length, 1);
  } finally {
    await runner.stop();
    await home.close();
  }
});

Deno.test("JobRunner records a missed slot and runs nothing with missed: skip", async () => {
  const clock = new ManualClock(START);
  const home = await jobHome(undefined, { clock });
  const runner = new JobRunner(home.ctx, { paths: home.paths, clock });
  try {
    await home.write({ name: "hourly", schedule: "0 * * * *", missed: "skip" });
    home.store.since("hourly", START - 2.5 * 3_600_000);
    await runner.start();
    await runner.idle();
    await runner.stop();
    const rows = home.store.log("hourly");
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.state, "missed");
    assert.equal(rows[0]?.slot_id, slotId("hourly", rows[0]!.slot_ms));
    assert.equal(home.events.filter((e) => e.type === "job.result").length, 0);
    assert.match(home.events[0]?.text ?? "", /they are skipped\.$/);
    // Started again, nothing more is missed or told.
    const again = new JobRunner(home.ctx, { paths: home.paths, clock });
    await again.start();
    await again.idle();
    await again.stop();
    assert.equal(home.store.log("hourly").length, 1);
    assert.equal(home.events.length, 1);
    // The next hour comes: it runs, as a slot due now.
    const next = new JobRunner(home.ctx, { paths: home.paths, clock });
    await next.start();
    clock.set(Date.UTC(2026, 0, 5, 8));
    await next.idle();
    await next.stop();
    assert.deepEqual(home.store.log("hourly").map((r) => r.state), ["ok", "missed"]);
  } finally {
    await runner.stop();
    await home.close();
  }
});

Deno.test("JobRunner picks up a job file added while it runs", async () => {
  const clock = new ManualClock(START);
  const home = await jobHome(undefined, { clock });
  const runner = new JobRunner(home.ctx, { paths: home.paths, clock, reloadMs: 200 });
  try {
    await runner.start();
    assert.equal(runner.size, 0);
    await home.write({ name: "late", deliver: "none" });
    // Seen by the folder's watch (a fifth of a second, real time), or at the next look.
    const deadline = Date.now() + 5_000;
    while (runner.size === 0 && Date.now() < deadline) {
      clock.advance(250);
      await runner.idle();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(runner.size, 1);
    await tick(clock, [runner]);
    assert.ok(home.store.log("late").length >= 1);
  } finally {
    await runner.stop();
    await home.close();
  }
});
