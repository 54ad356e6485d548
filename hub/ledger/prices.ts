/**
 * Pricing one call from the token usage the AI SDK reports.
 *
 * The SDK normalizes every provider to a cache-inclusive `inputTokens` plus the cache
 * reads and writes inside it (vendor-a and vendor-d report cache apart from input on
 * the wire, vendor-b and vendor-c inside it; the SDK evens that out). So the tokens
 * billed at the plain input price are `inputTokens - cacheRead - cacheWrite`, and each
 * cached token is priced once, at its cache price.
 *
 * vendor-a and vendor-d also say how many of the cache writes were 1-hour writes
 * (`ttl = "1h"`), which cost more than 5-minute ones; the SDK keeps that only in the
 * provider's raw usage, so the caller passes it as `cacheWrite1hTokens`.
 *
 * @module
 */
import type { PriceConfig, ProviderId } from "../config/types.ts";

/** Token usage of one call, as the AI SDK reports it. */
export interface Usage {
  /** Input tokens, cache-inclusive (the AI SDK's `inputTokens`). */
  inputTokens: number;
  /** Output tokens, reasoning included. */
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  cacheReadTokens: number;
  /** Input tokens written to the provider's prompt cache, at either lifetime. */
  cacheWriteTokens: number;
  /** How many of `cacheWriteTokens` were 1-hour writes; the rest are 5-minute. @default 0 */
  cacheWrite1hTokens?: number;
}

/** A usage's tokens split the way they are billed; the ledger stores these. */
export interface BilledTokens {
  /** Input tokens billed at the plain input price (cache excluded). */
  input: number;
  output: number;
  cacheRead: number;
  /** Cache writes at either lifetime. */
  cacheWrite: number;
  /** The part of `cacheWrite` that were 1-hour writes. */
  cacheWrite1h: number;
}

function count(n: number | undefined): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

/**
 * Splits a usage into billed parts: input without cache (never negative), output,
 * cache reads, cache writes and the 1-hour part of them (never more than the writes).
 * Missing or odd counts are taken as 0.
 */
export function billedTokens(usage: Usage): BilledTokens {
  const cacheRead = count(usage.cacheReadTokens);
  const cacheWrite = count(usage.cacheWriteTokens);
  return {
    input: Math.max(0, count(usage.inputTokens) - cacheRead - cacheWrite),
    output: count(usage.outputTokens),
    cacheRead,
    cacheWrite,
    cacheWrite1h: Math.min(cacheWrite, count(usage.cacheWrite1hTokens)),
  };
}

/**
 * Dollars for one call at `price` (dollars per million tokens), or `null` when the
 * model has no price (an unpriced call counts as $0 but is recorded as such).
 * 5-minute cache writes cost `cache_write`, 1-hour ones `cache_write_1h`.
 *
 * @example
 * ```ts
 * import { costOf } from "./prices.ts";
 * const price = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75, cache_write_1h: 6 };
 * // 1,000 input tokens of which 800 came from the cache, 100 output tokens
 * const usd = costOf({ inputTokens: 1000, outputTokens: 100, cacheReadTokens: 800, cacheWriteTokens: 0 }, price);
 * if (Math.abs(usd! - (200 * 3 + 100 * 15 + 800 * 0.3) / 1e6) > 1e-12) throw new Error(String(usd));
 * ```
 */
export function costOf(usage: Usage, price: PriceConfig | undefined): number | null {
  if (price === undefined) return null;
  const t = billedTokens(usage);
  const write5m = price.cache_write ?? price.input;
  const micro = t.input * price.input + t.output * price.output +
    t.cacheRead * (price.cache_read ?? price.input) +
    (t.cacheWrite - t.cacheWrite1h) * write5m +
    t.cacheWrite1h * (price.cache_write_1h ?? write5m);
  return micro / 1_000_000;
}

/** Providers whose calls cost nothing whatever the price table says. */
export const FREE_PROVIDERS: readonly ProviderId[] = ["fake", "local-runtime"];

/** Options for {@linkcode callCost}. */
export interface CallCostOptions {
  /** The provider that answered. */
  provider: ProviderId;
  /** The model's price (agent.toml over shipped), or undefined when it has none. */
  price: PriceConfig | undefined;
}

/**
 * Dollars for one call: {@linkcode costOf} at the price (null when the model is
 * unpriced); $0 for `local-runtime`, and for `fake` without a price. A price on a `fake`
 * model is honoured (with `params.usage`, a fake role spends, to try budgets).
 */
export function callCost(usage: Usage, options: CallCostOptions): number | null {
  if (options.provider === "fake" && options.price !== undefined) {
    return costOf(usage, options.price);
  }
  return FREE_PROVIDERS.includes(options.provider) ? 0 : costOf(usage, options.price);
}
