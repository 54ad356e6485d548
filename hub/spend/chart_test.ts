import assert from "node:assert/strict";
import { Ledger } from "../ledger/ledger.ts";
import { SpendChartReader } from "./chart.ts";
import { periodBounds } from "../ledger/periods.ts";

Deno.test("SpendChartReader.chart() sums spend per day and role from the daily totals, zero days filled", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agent-spend-chart-" });
  try {
    const file = `${dir}/spend.sqlite3`;
    const reader = new SpendChartReader(file);
    // 10 Jan 2026, 12:00 in Istanbul.
    const now = Date.UTC(2026, 0, 10, 9);
    const { sinceMs, resetMs } = periodBounds("month", now);
    assert.deepEqual(reader.chart(sinceMs, resetMs, now).roles, [], "no ledger: nothing");
    const ledger = Ledger.open(file);
    const row = (day: number, role: string, usd: number) => ({
      ts: Date.UTC(2026, 0, day, 9),
      role,
      provider: "fake" as const,
      model_id: "m",
      input_tokens: 1,
      output_tokens: 1,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      usd,
      channel: "chat" as const,
      session_id: "s",
      peer: null,
    });
    ledger.recordMany([
      row(2, "brain", 0.5),
      row(2, "brain", 0.25),
      row(2, "fast", 0.1),
      row(9, "fast", 2),
      row(12, "brain", 9), // after now: beyond the days shown
      { ...row(1, "brain", 7), ts: Date.UTC(2025, 11, 31, 9) }, // last month
    ]);
    ledger.close();
    const chart = reader.chart(sinceMs, resetMs, now);
    reader.close();
    assert.equal(chart.days.length, 10);
    assert.equal(chart.days[0], "2026-01-01");
    assert.equal(chart.days[9], "2026-01-10");
    assert.deepEqual(chart.roles, ["fast", "brain"]);
    assert.deepEqual(chart.usd.brain?.[1], 0.75);
    assert.deepEqual(chart.usd.fast?.[1], 0.1);
    assert.deepEqual(chart.usd.fast?.[8], 2);
    assert.deepEqual(chart.calls[1], 3);
    assert.equal(chart.usd.brain?.reduce((a, b) => a + b, 0), 0.75);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SpendChartReader.hourly() sums today's spend per hour and role up to now, and turnUsage() counts estimated calls", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agent-spend-hours-" });
  try {
    const file = `${dir}/spend.sqlite3`;
    const reader = new SpendChartReader(file);
    // 10 Jan 2026, 12:30 in Istanbul.
    const now = Date.UTC(2026, 0, 10, 9, 30);
    const { sinceMs, resetMs } = periodBounds("day", now);
    assert.deepEqual(reader.hourly(sinceMs, resetMs, now).roles, [], "no ledger: nothing");
    const ledger = Ledger.open(file);
    // At HH:MM Istanbul (UTC+3) on the 10th.
    const row = (hour: number, minute: number, role: string, usd: number, estimated = false) => ({
      ts: Date.UTC(2026, 0, 10, hour - 3, minute),
      role,
      provider: "fake" as const,
      model_id: "m",
      input_tokens: 1,
      output_tokens: 1,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      usd,
      channel: "chat" as const,
      session_id: "s",
      peer: null,
      estimated,
    });
    ledger.recordMany([
      row(0, 5, "brain", 0.5),
      row(0, 55, "brain", 0.25),
      row(9, 0, "fast", 0.1, true),
      row(12, 29, "fast", 0.2),
      row(13, 0, "brain", 9), // after now
      { ...row(0, 0, "brain", 7), ts: sinceMs - 1 }, // yesterday
    ]);
    ledger.close();
    const hours = reader.hourly(sinceMs, resetMs, now);
    assert.equal(hours.hours.length, 24);
    assert.equal(hours.hours[0], "00:00");
    assert.equal(hours.hours[23], "23:00");
    assert.equal(hours.elapsed, 13);
    assert.deepEqual(hours.roles, ["brain", "fast"]);
    assert.equal(hours.usd.brain?.[0], 0.75);
    assert.equal(hours.usd.fast?.[9], 0.1);
    assert.equal(hours.usd.fast?.[12], 0.2);
    assert.equal(hours.usd.brain?.reduce((a, b) => a + b, 0), 0.75);
    assert.deepEqual(hours.calls.slice(0, 13), [2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1]);
    const usage = reader.turnUsage("s", sinceMs);
    assert.equal(usage[0]?.estimated_calls, 1);
    reader.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
