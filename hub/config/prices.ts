/**
 * The shipped price table, keyed by model id: dollars per million tokens, with cache
 * prices (a cache price missing at the vendor stands for the input price; a missing
 * 1-hour write price for the 5-minute one). List prices from the vendors' public price
 * pages, last checked 24.11.2026. A price in `agent.toml` `[models.prices.<id>]` wins
 * over these.
 *
 * @module
 */
import type { AgentConfig, PriceConfig } from "./types.ts";

function price(
  input: number,
  output: number,
  cacheRead = input,
  cacheWrite = input,
  cacheWrite1h = cacheWrite,
): PriceConfig {
  return {
    input,
    output,
    cache_read: cacheRead,
    cache_write: cacheWrite,
    cache_write_1h: cacheWrite1h,
  };
}

/** Shipped list prices per model id (USD per million tokens). */
export const SHIPPED_PRICES: Readonly<Record<string, PriceConfig>> = {
  // vendor-a (Anthropic): input, output, cache read, 5-minute write, 1-hour write.
  "claude-fable-5-1": price(10, 50, 0.25, 12.5, 20),
  "claude-opus-5-5": price(4, 20, 0.2, 5, 8),
  "claude-opus-5": price(5, 25, 0.5, 6.25, 10),
  "claude-sonnet-5-5": price(2, 10, 0.1, 2.5, 4),
  "claude-sonnet-5": price(2, 10, 0.2, 2.5, 4),
  // Haiku 5.5 costs 5 times as much for prompts over 100k tokens; long-context prices
  // are not modelled.
  "claude-haiku-5-5": price(0.1, 0.5, 0.01, 0.125, 0.2),
  "claude-opus-4-8": price(5, 25, 0.5, 6.25, 10),
  "claude-opus-4-7": price(5, 25, 0.5, 6.25, 10),
  "claude-opus-4-6": price(5, 25, 0.5, 6.25, 10),
  "claude-opus-4-5": price(5, 25, 0.5, 6.25, 10),
  "claude-opus-4-5-20251101": price(5, 25, 0.5, 6.25, 10),
  "claude-sonnet-4-6": price(3, 15, 0.3, 3.75, 6),
  "claude-sonnet-4-5": price(3, 15, 0.3, 3.75, 6),
  "claude-sonnet-4-5-20250929": price(3, 15, 0.3, 3.75, 6),
  "claude-haiku-4-5": price(1, 5, 0.1, 1.25, 2),
  "claude-haiku-4-5-20251001": price(1, 5, 0.1, 1.25, 2),
  // vendor-b (OpenAI): input, output, cached input, cache write (30-minute retention;
  // the 12-hour write is not modelled). Over 272k input tokens the rates rise; not
  // modelled either.
  "gpt-6-astra": price(10, 50, 1, 12.5),
  "gpt-6.2-sol": price(2, 10, 0.1, 2.5),
  "gpt-6.1-sol": price(2, 10, 0.1, 2.5),
  "gpt-6-sol": price(2, 10, 0.2, 2.5),
  "gpt-6-luna": price(0.1, 0.5, 0.01, 0.125),
  "gpt-5.2": price(1.75, 14, 0.175),
  // gpt-5, gpt-5-mini and gpt-5-nano shut down on 11.12.2026; kept so calls until
  // then stay priced.
  "gpt-5": price(1.25, 10, 0.125),
  "gpt-5-mini": price(0.25, 2, 0.025),
  "gpt-5-nano": price(0.05, 0.4, 0.005),
  // vendor-c (Google Gemini): prompts up to 200k tokens; context-cache storage not modelled.
  "gemini-3.5-flash": price(1.5, 9, 0.15),
  "gemini-2.5-pro": price(1.25, 10, 0.125),
  "gemini-2.5-flash": price(0.3, 2.5, 0.03),
  "gemini-2.5-flash-lite": price(0.1, 0.4, 0.01),
  // vendor-d (Amazon Bedrock, global inference profiles): the vendor-a list prices,
  // which Bedrock charges on global profiles (geographic ones cost a tenth more).
  "global.anthropic.claude-opus-5-5": price(4, 20, 0.2, 5, 8),
  "global.anthropic.claude-sonnet-5-5": price(2, 10, 0.1, 2.5, 4),
  "global.anthropic.claude-haiku-5-5": price(0.1, 0.5, 0.01, 0.125, 0.2),
  "global.anthropic.claude-sonnet-4-5-20250929-v1:0": price(3, 15, 0.3, 3.75, 6),
  "global.anthropic.claude-haiku-4-5-20251001-v1:0": price(1, 5, 0.1, 1.25, 2),
  "global.anthropic.claude-opus-4-5-20251101-v1:0": price(5, 25, 0.5, 6.25, 10),
};

/**
 * The price for `modelId`: `agent.toml` first, then the shipped table; `undefined`
 * when the model is unpriced.
 *
 * @example
 * ```ts
 * import { lookupPrice } from "./prices.ts";
 * import { defaultConfig } from "./parse.ts";
 * const config = defaultConfig();
 * if (lookupPrice(config, "gpt-6-luna")?.input !== 0.1) throw new Error();
 * if (lookupPrice(config, "no-such-model") !== undefined) throw new Error();
 * ```
 */
export function lookupPrice(config: AgentConfig, modelId: string): PriceConfig | undefined {
  if (Object.hasOwn(config.models.prices, modelId)) return config.models.prices[modelId];
  return Object.hasOwn(SHIPPED_PRICES, modelId) ? SHIPPED_PRICES[modelId] : undefined;
}
