/**
 * Token estimates where a provider's count is missing: the prompt of a call that ended
 * before the provider reported its usage (cancelled, timed out, connection lost, process
 * stopped), the text it streamed, and the prompt bound a hard cap reserves.
 *
 * No tokenizer is shipped: the vendors' tokenizers are not all published as maintained
 * packages, and one per vendor would weigh more than the agent. The rule of thumb is
 * about 4 characters a token for English text and code (the vendors' own guidance); the
 * prompt is measured as its JSON, whose keys and quotes add a little on top. A hard cap
 * reserves with 2 characters a token, an upper bound for text in Latin and Cyrillic
 * scripts, so the reservation is not smaller than the real prompt.
 *
 * @module
 */

/** Characters per token for an estimated row. */
export const CHARS_PER_TOKEN = 4;

/** Characters per token for a hard cap's reservation (an upper bound on tokens). */
export const RESERVE_CHARS_PER_TOKEN = 2;

/** The characters of `value` as JSON (a prompt, tool definitions). */
export function jsonChars(value: unknown): number {
  try {
    return (JSON.stringify(value) ?? "").length;
  } catch {
    return 0;
  }
}

/**
 * Estimated tokens of `chars` characters.
 *
 * @example
 * ```ts
 * import { estimateTokens } from "./estimate.ts";
 * if (estimateTokens(10) !== 3 || estimateTokens(0) !== 0) throw new Error();
 * ```
 */
export function estimateTokens(chars: number, charsPerToken = CHARS_PER_TOKEN): number {
  return chars <= 0 ? 0 : Math.ceil(chars / charsPerToken);
}
