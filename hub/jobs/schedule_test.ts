import assert from "node:assert/strict";
import { nextSlot, scheduleOf, slotId, slotsBetween } from "./schedule.ts";

const iso = (ms: number | undefined) => ms === undefined ? "none" : new Date(ms).toISOString();

Deno.test("nextSlot() keeps Europe/Istanbul at UTC+3 all year (no DST since 2016)", () => {
  const cron = scheduleOf("0 8 * * *", "Europe/Istanbul");
  assert.deepEqual(iso(nextSlot(cron, Date.UTC(2026, 2, 28, 12))), "2026-03-29T05:00:00.000Z");
  assert.deepEqual(iso(nextSlot(cron, Date.UTC(2026, 9, 24, 12))), "2026-10-25T05:00:00.000Z");
  assert.deepEqual(iso(nextSlot(cron, Date.UTC(2026, 11, 31, 12))), "2027-01-01T05:00:00.000Z");
});

Deno.test("nextSlot() follows America/New_York across the spring change", () => {
  const cron = scheduleOf("0 8 * * *", "America/New_York");
  // 8:00 EST is 13:00 UTC; after 8 March 2026 8:00 EDT is 12:00 UTC.
  assert.deepEqual(iso(nextSlot(cron, Date.UTC(2026, 2, 7, 0))), "2026-03-07T13:00:00.000Z");
  assert.deepEqual(iso(nextSlot(cron, Date.UTC(2026, 2, 8, 0))), "2026-03-08T12:00:00.000Z");
});

Deno.test("slotsBetween() neither skips nor doubles a slot in New York's DST hours", () => {
  // 2:30 does not exist on 8 March 2026 and 1:30 happens twice on 1 November 2026.
  const spring = scheduleOf("30 2 * * *", "America/New_York");
  const s = slotsBetween(spring, Date.UTC(2026, 2, 7, 12), Date.UTC(2026, 2, 9, 12), 10);
  assert.deepEqual(s.count, 2);
  // The skipped 2:30 runs once, at 3:00 EDT (07:00 UTC).
  assert.deepEqual(s.slots.map(iso), ["2026-03-08T07:00:00.000Z", "2026-03-09T06:30:00.000Z"]);
  const fall = scheduleOf("30 1 * * *", "America/New_York");
  const f = slotsBetween(fall, Date.UTC(2026, 9, 31, 12), Date.UTC(2026, 10, 2, 12), 10);
  assert.deepEqual(f.count, 2);
  assert.deepEqual(new Set(f.slots.map((ms) => new Date(ms).toISOString().slice(0, 10))).size, 2);
});

Deno.test("slotsBetween() keeps only the newest slots past its limit and counts all", () => {
  const cron = scheduleOf("* * * * *", "UTC");
  const from = Date.UTC(2026, 0, 1);
  const { slots, count } = slotsBetween(cron, from, from + 60 * 60_000, 2);
  assert.deepEqual(count, 60);
  assert.deepEqual(slots, [from + 59 * 60_000, from + 60 * 60_000]);
});

Deno.test("slotId() names the job and the slot's instant", () => {
  assert.deepEqual(slotId("news", Date.UTC(2026, 0, 1, 5)), "news@2026-01-01T05:00:00.000Z");
});

Deno.test("scheduleOf() takes a seconds field first", () => {
  const cron = scheduleOf("*/5 * * * * *", "UTC");
  assert.deepEqual(nextSlot(cron, Date.UTC(2026, 0, 1, 0, 0, 1)), Date.UTC(2026, 0, 1, 0, 0, 5));
});
