/**
 * Pricing one call from the token usage the AI SDK reports.
 *
 * The SDK normalizes every provider to a cache-inclusive `inputTokens` plus the cache
 * reads and writes inside it (vendor-a and vendor-d report cache apart from input on
 * the wire, vendor-b and vendor-c inside it; the SDK evens that out). So the tokens
 * billed at the plain input price are `inputTokens - cacheRead - cacheWrite`, and each
 * cached token is priced once, at its cache price.
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
  /** Input tokens written to the provider's prompt cache. */
  cacheWriteTokens: number;
}

/** A usage's tokens split the way they are billed; the ledger stores these. */
export interface BilledTokens {
  /** Input tokens billed at the plain input price (cache excluded). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

function count(n: number | undefined): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

/**
 * Splits a usage into billed parts: input without cache (never negative), output,
 * cache reads, cache writes. Missing or odd counts are taken as 0.
 */
export function billedTokens(usage: Usage): BilledTokens {
  const cacheRead = count(usage.cacheReadTokens);
  const cacheWrite = count(usage.cacheWriteTokens);
  return {
    input: Math.max(0, count(usage.inputTokens) - cacheRead - cacheWrite),
    output: count(usage.outputTokens),
    cacheRead,
    cacheWrite,
  };
}

/**
 * Dollars for one call at `price` (dollars per million tokens), or `null` when the
 * model has no price (an unpriced call counts as $0 but is recorded as such).
 *
 * @example
 * ```ts
 * import { costOf } from "./prices.ts";
 * const price = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
 * // 1,000 input tokens of which 800 came from the cache, 100 output tokens
 * const usd = costOf({ inputTokens: 1000, outputTokens: 100, cacheReadTokens: 800, cacheWriteTokens: 0 }, price);
 * if (Math.abs(usd! - (200 * 3 + 100 * 15 + 800 * 0.3) / 1e6) > 1e-12) throw new Error(String(usd));
 * ```
 */
export function costOf(usage: Usage, price: PriceConfig | undefined): number | null {
  if (price === undefined) return null;
  const t = billedTokens(usage);
  const micro = t.input * price.input + t.output * price.output +
    t.cacheRead * (price.cache_read ?? price.input) +
    t.cacheWrite * (price.cache_write ?? price.input);
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
 * Dollars for one call: $0 for `fake` and `local-runtime`, else {@linkcode costOf}
 * at the price (null when the model is unpriced).
 */
export function callCost(usage: Usage, options: CallCostOptions): number | null {
  return FREE_PROVIDERS.includes(options.provider) ? 0 : costOf(usage, options.price);
}
