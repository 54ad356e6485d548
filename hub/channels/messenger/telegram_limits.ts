/**
 * Telegram's flood limits, kept for every Bot API call the messenger makes (the
 * equivalent of grammY's auto-retry plugin): a `429 Too Many Requests` is waited out
 * for its `retry_after` and the call made again, so a burst of answers is slowed down,
 * never dropped. Long polling is left alone (its loop has its own backoff). The pace of
 * edits within one chat is the reply's business (`reply.ts`). A wait ends early when the
 * channel stops (its `stop` signal) or the call's own signal aborts: the call then fails
 * with Telegram's 429, so the caller knows the text was not sent.
 *
 * @module
 */
import type { Transformer } from "grammy";
import { pause } from "../../backoff.ts";

/** Options for {@linkcode retryOn429}. */
export interface RetryOn429Options {
  /** How many times one call is tried again. @default 8 */
  attempts?: number;
  /** The longest `retry_after` waited out, in seconds; a longer one fails the call. @default 60 */
  maxWaitSec?: number;
  /** The channel's stop: a wait in progress ends at once and nothing is tried again. */
  stop?: AbortSignal;
}

/**
 * A grammY transformer that waits out `429`s and tries the call again.
 *
 * @example
 * ```ts
 * import { retryOn429 } from "./telegram_limits.ts";
 * const answers = [
 *   { ok: false, error_code: 429, description: "Too Many Requests", parameters: { retry_after: 0 } },
 *   { ok: true, result: true },
 * ];
 * const prev = () => Promise.resolve(answers.shift()!);
 * const response = await retryOn429()(prev as never, "sendMessage", {} as never);
 * if (!response.ok) throw new Error("the 429 was not waited out");
 * ```
 */
export function retryOn429(options: RetryOn429Options = {}): Transformer {
  const attempts = options.attempts ?? 8;
  const maxWaitSec = options.maxWaitSec ?? 60;
  const stop = options.stop;
  return async (prev, method, payload, signal) => {
    let response = await prev(method, payload, signal);
    for (let i = 0; i < attempts && method !== "getUpdates"; i++) {
      if (response.ok || response.error_code !== 429) break;
      const wait = response.parameters?.retry_after ?? 1;
      const ended = () => signal?.aborted === true || stop?.aborted === true;
      if (wait > maxWaitSec || ended()) break;
      // grammY types the call's signal with a polyfill's type; in Deno it is the global one.
      await pause(wait * 1000, anyOf(signal as AbortSignal | undefined, stop));
      if (ended()) break;
      response = await prev(method, payload, signal);
    }
    return response;
  };
}

/** One signal that aborts when either given one does (`undefined` when neither is given). */
function anyOf(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const given = signals.filter((s): s is AbortSignal => s !== undefined);
  return given.length <= 1 ? given[0] : AbortSignal.any(given);
}
