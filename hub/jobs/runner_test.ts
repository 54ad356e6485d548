import assert from "node:assert/strict";
import { jobHome } from "./_testing.ts";
import { JobRunner } from "./runner.ts";
import { slotId } from "./schedule.ts";
import { ALL_JOBS } from "./pause_store.ts";

/** Hourly, half an hour away from now: no slot is due while a test runs. */
const HOURLY = `${(new Date().getUTCMinutes() + 30) % 60} * * * *`;

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

Deno.test("JobRunner runs each slot of an every-second job once, also with two hubs", async () => {
  const home = await jobHome();
  const a = new JobRunner(home.ctx, { paths: home.paths });
  const b = new JobRunner(home.second(), { paths: home.paths });
  try {
    await home.write({ name: "tick", deliver: "events" });
    await Promise.all([a.start(), b.start()]);
    await wait(3_200);
    await Promise.all([a.stop(), b.stop()]);
    await home.flush();
    const rows = home.store.log("tick").filter((r) => r.state === "ok");
    assert.ok(rows.length >= 2, `ran ${rows.length} slots`);
    const results = home.events.filter((e) => e.type === "job.result");
    assert.equal(results.length, rows.length);
    assert.equal(
      new Set(results.map((e) => e.type === "job.result" && e.slot_id)).size,
      rows.length,
    );
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await home.close();
  }
});

Deno.test("JobRunner stops at the next slot once every job is paused", async () => {
  const home = await jobHome();
  const runner = new JobRunner(home.ctx, { paths: home.paths });
  try {
    await home.write({ name: "tick", deliver: "none" });
    await runner.start();
    await wait(1_300);
    home.store.pauses.pause(ALL_JOBS, "owner", Date.now());
    await wait(300);
    const before = home.store.log("tick").length;
    assert.ok(before >= 1);
    await wait(2_000);
    assert.equal(home.store.log("tick").length, before);
  } finally {
    await runner.stop();
    await home.close();
  }
});

Deno.test("JobRunner runs a slot missed while no hub ran once on start (missed: once)", async () => {
  const home = await jobHome();
  const runner = new JobRunner(home.ctx, { paths: home.paths });
  try {
    const now = Date.now();
    await home.write({ name: "hourly", schedule: HOURLY, missed: "once" });
    home.store.since("hourly", now - 3 * 3_600_000);
    await runner.start();
    await wait(500);
    await runner.stop();
    const rows = home.store.log("hourly");
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.state, "ok");
    assert.equal(rows[0]?.missed, true);
    await home.flush();
    const notices = home.events.filter((e) => e.type === "job.notice");
    assert.equal(notices.length, 1);
    assert.match(
      notices[0]!.text,
      /^Job hourly missed 3 run\(s\) while no hub ran \(last .+\); it runs once now\.$/,
    );
    assert.equal(home.events.filter((e) => e.type === "job.result").length, 1);
  } finally {
    await runner.stop();
    await home.close();
  }
});

Deno.test("JobRunner records a missed slot and runs nothing with missed: skip", async () => {
  const home = await jobHome();
  const runner = new JobRunner(home.ctx, { paths: home.paths });
  try {
    const now = Date.now();
    await home.write({ name: "hourly", schedule: HOURLY, missed: "skip" });
    home.store.since("hourly", now - 2 * 3_600_000);
    await runner.start();
    await wait(300);
    await runner.stop();
    const rows = home.store.log("hourly");
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.state, "missed");
    assert.equal(rows[0]?.slot_id, slotId("hourly", rows[0]!.slot_ms));
    assert.equal(home.events.filter((e) => e.type === "job.result").length, 0);
    assert.match(home.events[0]?.text ?? "", /they are skipped\.$/);
    // Started again, nothing more is missed or told.
    const again = new JobRunner(home.ctx, { paths: home.paths });
    await again.start();
    await wait(200);
    await again.stop();
    assert.equal(home.store.log("hourly").length, 1);
    assert.equal(home.events.length, 1);
  } finally {
    await runner.stop();
    await home.close();
  }
});

Deno.test("JobRunner picks up a job file added while it runs", async () => {
  const home = await jobHome();
  const runner = new JobRunner(home.ctx, { paths: home.paths, reloadMs: 200 });
  try {
    await runner.start();
    assert.equal(runner.size, 0);
    await home.write({ name: "late", deliver: "none" });
    await wait(1_800);
    assert.equal(runner.size, 1);
    assert.ok(home.store.log("late").length >= 1);
  } finally {
    await runner.stop();
    await home.close();
  }
});
