/**
 * The retry policy for throttling. The SDK's own retries are off (`maxRetries: 0`)
 * because it also retries 5xx, which the spec fails over instead; here only 429 is
 * retried, honouring `retry-after`.
 *
 * @module
 */
import { APICallError } from "@ai-sdk/provider";
import { backoffDelay, parseRetryAfter } from "../backoff.ts";
import { statusOf } from "./failures.ts";

/** Options for {@linkcode retryThrottled}. */
export interface RetryOptions {
  /** Tries in all, the first included. @default 4 */
  attempts?: number;
  /** First backoff when the answer has no `retry-after`, doubled each time. @default 1000 */
  baseDelayMs?: number;
  /** A `retry-after` longer than this is not waited for. @default 30000 */
  maxDelayMs?: number;
  signal?: AbortSignal | undefined;
}

/** Runs `call`, retrying it while it fails with HTTP 429. */
export async function retryThrottled<T>(
  call: () => PromiseLike<T>,
  options: RetryOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? 4;
  const base = options.baseDelayMs ?? 1000;
  const max = options.maxDelayMs ?? 30_000;
  for (let attempt = 1;; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (statusOf(error) !== 429 || attempt >= attempts) throw error;
      // The hub's one backoff, without jitter: a model call is one caller, not a fleet.
      const delay = backoffDelay(attempt - 1, {
        baseMs: base,
        maxMs: Infinity,
        jitter: 0,
        retryAfterMs: askedDelay(error),
      });
      if (delay > max) throw error;
      await sleep(delay, options.signal);
    }
  }
}

/** The wait a 429 asks for: `retry-after-ms`, `retry-after` (seconds or a date), else `fallbackMs`. */
export function retryDelay(error: unknown, fallbackMs: number): number {
  return askedDelay(error) ?? fallbackMs;
}

/** The wait a 429 asks for (`retry-after-ms`, else `retry-after`), if it asks for one. */
function askedDelay(error: unknown): number | undefined {
  const headers = APICallError.isInstance(error) ? error.responseHeaders ?? {} : {};
  const lower: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  const ms = Number(lower["retry-after-ms"]);
  if (lower["retry-after-ms"] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  return parseRetryAfter(lower["retry-after"]);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
