import assert from "node:assert/strict";
import { defaultConfig } from "../config/parse.ts";
import { estimateJob } from "./estimate.ts";

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
