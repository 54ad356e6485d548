import assert from "node:assert/strict";
import { billedTokens, callCost, costOf } from "./prices.ts";

const PRICE = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75, cache_write_1h: 6 };

function close(actual: number | null, expected: number) {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${actual} != ${expected}`);
}

Deno.test("costOf() prices plain input and output per million tokens", () => {
  const usd = costOf({
    inputTokens: 1_000_000,
    outputTokens: 100_000,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  }, PRICE);
  close(usd, 3 + 1.5);
});

Deno.test("costOf() prices each cached token once, at its cache price", () => {
  // The AI SDK reports inputTokens cache-inclusive: 10,000 = 2,000 plain + 6,000 read + 2,000 written.
  const usd = costOf({
    inputTokens: 10_000,
    outputTokens: 500,
    cacheReadTokens: 6_000,
    cacheWriteTokens: 2_000,
  }, PRICE);
  close(usd, (2_000 * 3 + 500 * 15 + 6_000 * 0.3 + 2_000 * 3.75) / 1e6);
});

Deno.test("costOf() never bills negative plain input", () => {
  // A provider reporting cache outside input would make the difference negative.
  const usage = { inputTokens: 100, outputTokens: 0, cacheReadTokens: 900, cacheWriteTokens: 0 };
  assert.deepEqual(billedTokens(usage), {
    input: 0,
    output: 0,
    cacheRead: 900,
    cacheWrite: 0,
    cacheWrite1h: 0,
  });
  close(costOf(usage, PRICE), 900 * 0.3 / 1e6);
});

Deno.test("costOf() returns null for an unpriced model", () => {
  assert.equal(
    costOf({ inputTokens: 5, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }, undefined),
    null,
  );
});

Deno.test("billedTokens() treats missing or odd counts as 0", () => {
  const usage = {
    inputTokens: Number.NaN,
    outputTokens: -3,
    cacheReadTokens: undefined as unknown as number,
    cacheWriteTokens: 2.6,
  };
  assert.deepEqual(billedTokens(usage), {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 3,
    cacheWrite1h: 0,
  });
});

Deno.test("costOf() prices 1-hour cache writes at cache_write_1h and the rest at cache_write", () => {
  // 10,000 input = 1,000 plain + 4,000 read + 5,000 written, 3,000 of them for an hour.
  const usd = costOf({
    inputTokens: 10_000,
    outputTokens: 500,
    cacheReadTokens: 4_000,
    cacheWriteTokens: 5_000,
    cacheWrite1hTokens: 3_000,
  }, PRICE);
  close(usd, (1_000 * 3 + 500 * 15 + 4_000 * 0.3 + 2_000 * 3.75 + 3_000 * 6) / 1e6);
});

Deno.test("billedTokens() never counts more 1-hour writes than writes", () => {
  const usage = {
    inputTokens: 300,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 200,
    cacheWrite1hTokens: 500,
  };
  assert.deepEqual(billedTokens(usage).cacheWrite1h, 200);
  close(costOf(usage, PRICE), (100 * 3 + 200 * 6) / 1e6);
});

Deno.test("callCost() is $0 for fake and local-runtime, null for other unpriced models", () => {
  const usage = { inputTokens: 1000, outputTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0 };
  assert.equal(callCost(usage, { provider: "fake", price: undefined }), 0);
  assert.equal(callCost(usage, { provider: "local-runtime", price: PRICE }), 0);
  assert.equal(callCost(usage, { provider: "vendor-b", price: undefined }), null);
  close(callCost(usage, { provider: "vendor-b", price: PRICE }), (3000 + 15000) / 1e6);
});
