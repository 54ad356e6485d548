import assert from "node:assert/strict";
import { dayStart, isoWithOffset, nextDayStart, periodBounds } from "./periods.ts";

/** An Istanbul wall-clock time (+03:00 since 2016) as epoch ms. */
function ist(text: string): number {
  return Temporal.ZonedDateTime.from(`${text}[Europe/Istanbul]`).epochMilliseconds;
}

function bounds(period: "day" | "week" | "month", now: string): [string, string] {
  const b = periodBounds(period, ist(now));
  return [isoWithOffset(b.sinceMs), isoWithOffset(b.resetMs)];
}

Deno.test("periodBounds() day runs from Istanbul midnight to the next", () => {
  assertBounds(
    "day",
    "2026-03-10T23:59:59.999",
    "2026-03-10T00:00:00+03:00",
    "2026-03-11T00:00:00+03:00",
  );
  assertBounds("day", "2026-03-11T00:00", "2026-03-11T00:00:00+03:00", "2026-03-12T00:00:00+03:00");
  // 22:30 UTC is already the next day in Istanbul.
  const late = periodBounds("day", Date.UTC(2026, 2, 10, 22, 30));
  assert.equal(isoWithOffset(late.sinceMs), "2026-03-11T00:00:00+03:00");
});

Deno.test("periodBounds() week starts on Monday 00:00", () => {
  // 22.11.2026 is a Sunday; 23.11.2026 a Monday.
  assertBounds(
    "week",
    "2026-11-22T23:59",
    "2026-11-16T00:00:00+03:00",
    "2026-11-23T00:00:00+03:00",
  );
  assertBounds(
    "week",
    "2026-11-23T00:00",
    "2026-11-23T00:00:00+03:00",
    "2026-11-30T00:00:00+03:00",
  );
  assertBounds(
    "week",
    "2026-11-18T12:00",
    "2026-11-16T00:00:00+03:00",
    "2026-11-23T00:00:00+03:00",
  );
});

Deno.test("periodBounds() week spans the year change", () => {
  // 01.01.2026 is a Thursday: its week began on Monday 29.12.2025.
  assertBounds(
    "week",
    "2026-01-01T09:00",
    "2025-12-29T00:00:00+03:00",
    "2026-01-05T00:00:00+03:00",
  );
});

Deno.test("periodBounds() month starts on the 1st 00:00, also across the year change", () => {
  assertBounds(
    "month",
    "2026-12-31T23:59:59",
    "2026-12-01T00:00:00+03:00",
    "2027-01-01T00:00:00+03:00",
  );
  assertBounds(
    "month",
    "2027-01-01T00:00",
    "2027-01-01T00:00:00+03:00",
    "2027-02-01T00:00:00+03:00",
  );
  assertBounds(
    "month",
    "2028-02-29T12:00",
    "2028-02-01T00:00:00+03:00",
    "2028-03-01T00:00:00+03:00",
  );
  // New Year in Istanbul is still 31 December in UTC.
  const b = periodBounds("month", Date.UTC(2026, 11, 31, 21, 0, 0));
  assert.equal(b.sinceMs, Date.UTC(2026, 11, 31, 21));
});

Deno.test("periodBounds() follows the zone's rules, not a fixed offset", () => {
  // Istanbul kept summer time until 2016: March 2015 began at +02:00 and April at +03:00.
  assertBounds(
    "month",
    "2015-03-29T12:00",
    "2015-03-01T00:00:00+02:00",
    "2015-04-01T00:00:00+03:00",
  );
  const b = periodBounds("day", ist("2015-03-29T12:00"));
  assert.equal(b.resetMs - b.sinceMs, 23 * 3_600_000);
});

Deno.test("periodBounds() rejects an unknown period", () => {
  assert.throws(() => periodBounds("year" as "day", 0), RangeError);
});

Deno.test("dayStart() and nextDayStart() bracket the Istanbul day", () => {
  const now = ist("2026-06-15T13:45");
  assert.equal(dayStart(now), ist("2026-06-15T00:00"));
  assert.equal(nextDayStart(now), ist("2026-06-16T00:00"));
  assert.equal(dayStart(ist("2026-06-15T00:00")), ist("2026-06-15T00:00"));
});

Deno.test("isoWithOffset() prints the Istanbul offset to the second", () => {
  assert.equal(isoWithOffset(Date.UTC(2026, 4, 1, 9, 30, 15, 999)), "2026-05-01T12:30:15+03:00");
});

function assertBounds(period: "day" | "week" | "month", now: string, since: string, reset: string) {
  assert.deepEqual(bounds(period, now), [since, reset]);
}
