import assert from "node:assert/strict";
import { defaultConfig } from "../config/parse.ts";
import { estimateJob, estimateRun } from "./estimate.ts";

const job = (schedule: string) => ({
  name: "n",
  schedule,
  tz: "Europe/Istanbul",
  role: "fast",
  deliver: "none" as const,
  missed: "once" as const,
  tools: "none" as const,
  prompt: "Hello",
});
const NOW = Date.parse("2026-11-26T09:00:00Z");

Deno.test("estimateJob() counts a day's runs: daily, weekly, every minute, every second", () => {
  const config = defaultConfig();
  assert.equal(estimateJob(config, job("0 8 * * *"), 0, NOW).runsPerDay, 1);
  assert.equal(estimateJob(config, job("0 8 * * 1"), 0, NOW).runsPerDay, 1);
  assert.equal(estimateJob(config, job("* * * * *"), 0, NOW).runsPerDay, 1440);
  // Past slotsBetween's cap of 10,000: counted at the pace of the first 10,000 slots.
  assert.equal(estimateJob(config, job("* * * * * *"), 0, NOW).runsPerDay, 86_400);
});

Deno.test("estimateRun() is estimateJob()'s model and run cost, without counting the slots", () => {
  const config = defaultConfig();
  config.models.roles.fast!.max_tokens = 512;
  for (const schedule of ["0 8 * * *", "* * * * *", "* * * * * *"]) {
    for (const tools of ["none", "tier1"] as const) {
      const whole = estimateJob(config, { ...job(schedule), tools }, 1_200, NOW);
      assert.deepEqual(
        estimateRun(config, { ...job(schedule), tools }, 1_200),
        { model: whole.model, runUsd: whole.runUsd },
      );
    }
  }
  // A run of an every-second job: what each run's claim and ceiling reserve, many times a
  // minute. Counting a day of its slots took ~0.3 s; the run's own cost takes none of that.
  const start = performance.now();
  for (let i = 0; i < 100; i++) estimateRun(config, job("* * * * * *"), 0);
  assert.ok(performance.now() - start < 100, `${performance.now() - start} ms`);
});
