import assert from "node:assert/strict";
import { backoffDelay, parseRetryAfter, RETRY_AFTER_MAX_MS } from "./backoff.ts";

Deno.test("backoffDelay() doubles from the base and never goes past the cap, jitter included", () => {
  for (let attempt = 0; attempt < 40; attempt++) {
    for (const r of [0, 0.5, 0.999999]) {
      const ms = backoffDelay(attempt, { random: () => r });
      assert.ok(ms <= 60_000, `attempt ${attempt}, random ${r}: ${ms}`);
    }
  }
  const middle = (attempt: number) => backoffDelay(attempt, { random: () => 0.5 });
  assert.deepEqual([0, 1, 2, 3, 5, 6, 7].map(middle), [
    1000,
    2000,
    4000,
    8000,
    32_000,
    60_000,
    60_000,
  ]);
  // Still spread out at the cap, so hubs do not retry in step.
  assert.equal(backoffDelay(20, { random: () => 0 }), 48_000);
  assert.equal(backoffDelay(0, { random: () => 0 }), 800);
  assert.equal(backoffDelay(0, { random: () => 0.999999 }), 1200);
  // A negative attempt is the first one; a huge one does not reach Infinity.
  assert.equal(backoffDelay(-3, { random: () => 0.5 }), 1000);
  assert.equal(backoffDelay(10_000, { maxMs: Infinity, random: () => 0.5 }), 1000 * 2 ** 16);
});

Deno.test("backoffDelay() takes its base, cap and jitter from the caller", () => {
  const outbox = { baseMs: 5_000, maxMs: 30 * 60_000 };
  assert.equal(backoffDelay(0, { ...outbox, random: () => 0.5 }), 5_000);
  assert.equal(backoffDelay(30, { ...outbox, random: () => 0.999 }) <= 30 * 60_000, true);
  assert.equal(backoffDelay(2, { baseMs: 1000, jitter: 0, random: () => 0 }), 4000);
  assert.equal(backoffDelay(2, { baseMs: 1000, jitter: 0.5, random: () => 0 }), 2000);
});

Deno.test("backoffDelay() keeps to a Retry-After as asked, past the cap but never past a day", () => {
  assert.equal(backoffDelay(0, { retryAfterMs: 0 }), 0);
  assert.equal(backoffDelay(9, { retryAfterMs: 1500, random: () => 0.999 }), 1500);
  assert.equal(backoffDelay(0, { retryAfterMs: 120_000 }), 120_000);
  assert.equal(backoffDelay(0, { retryAfterMs: 1e15 }), RETRY_AFTER_MAX_MS);
  assert.equal(backoffDelay(0, { retryAfterMs: Infinity }), RETRY_AFTER_MAX_MS);
  // Not asked (or asked nonsense): the formula.
  assert.equal(backoffDelay(1, { retryAfterMs: undefined, random: () => 0.5 }), 2000);
  assert.equal(backoffDelay(1, { retryAfterMs: -5, random: () => 0.5 }), 2000);
  assert.equal(backoffDelay(1, { retryAfterMs: NaN, random: () => 0.5 }), 2000);
});

Deno.test("parseRetryAfter() reads seconds and HTTP dates, and nothing else", () => {
  const now = Date.parse("2026-03-01T12:00:00Z");
  assert.equal(parseRetryAfter("0", now), 0);
  assert.equal(parseRetryAfter(" 30 ", now), 30_000);
  assert.equal(parseRetryAfter("1.5", now), 1500);
  assert.equal(parseRetryAfter("Sun, 01 Mar 2026 12:00:45 GMT", now), 45_000);
  assert.equal(parseRetryAfter("Sun, 01 Mar 2026 11:00:00 GMT", now), 0);
  for (const bad of [null, undefined, "", "  ", "soon", "1e3", "0x10"]) {
    assert.equal(parseRetryAfter(bad, now), undefined, String(bad));
  }
});
