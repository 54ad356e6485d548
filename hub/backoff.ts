/**
 * The one backoff of the hub: how long to wait before trying again, for the network
 * service and its outbox, the messenger's poll loop and the model-call retry. One
 * formula (exponential with a cap and jitter), and a wait the other side asked for
 * (`Retry-After`) honoured as asked.
 *
 * @module
 */

/**
 * The longest asked-for wait kept to (a day): a hostile or broken `Retry-After` must not
 * park a loop for good, nor overflow a timer (which would fire at once, in a hot loop).
 */
export const RETRY_AFTER_MAX_MS = 24 * 3_600_000;

/** Options for {@linkcode backoffDelay}. */
export interface BackoffOptions {
  /** The first wait, in milliseconds; it doubles each attempt. @default 1000 */
  baseMs?: number;
  /** The longest wait, jitter included (the spec's hub backoff: 60 s). @default 60000 */
  maxMs?: number;
  /**
   * How far the wait is spread around `base · 2^attempt`, as a fraction: 0.2 picks a
   * wait between 80% and 120% of it, so many hubs do not retry in step. @default 0.2
   */
  jitter?: number;
  /**
   * A wait the other side asked for (a `Retry-After`), in milliseconds: when given it
   * is the answer, as asked even past `maxMs` (the cap bounds our own guesses, not the
   * server's word), but never past a day. Whether to wait that long is the caller's call.
   * `undefined`, `NaN` or a negative value: nothing was asked, the formula decides.
   */
  retryAfterMs?: number | undefined;
  /** The random source, in [0, 1). @default Math.random */
  random?: () => number;
}

/**
 * The wait before retry `attempt` (0 first): the asked-for `retryAfterMs` when there is
 * one, else `baseMs · 2^attempt` spread by `jitter`, never above `maxMs`.
 *
 * @example
 * ```ts
 * import { backoffDelay } from "./backoff.ts";
 * if (backoffDelay(30, { random: () => 0.999 }) > 60_000) throw new Error("over the cap");
 * if (backoffDelay(3, { retryAfterMs: 120_000 }) !== 120_000) throw new Error("not honoured");
 * ```
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const asked = options.retryAfterMs;
  if (asked !== undefined && asked >= 0) return Math.round(Math.min(asked, RETRY_AFTER_MAX_MS));
  const base = options.baseMs ?? 1000;
  const max = options.maxMs ?? 60_000;
  const jitter = options.jitter ?? 0.2;
  const random = options.random ?? Math.random;
  // 2^16 is past any cap in use; the clamp keeps a long outage from reaching Infinity.
  const step = Math.min(max, base * 2 ** Math.min(Math.max(0, attempt), 16));
  return Math.round(Math.min(max, step * (1 - jitter + random() * 2 * jitter)));
}

/**
 * The wait a `Retry-After` header asks for, in milliseconds: a number of seconds or an
 * HTTP date (RFC 9110 section 10.2.3); `undefined` when missing or unreadable, 0 for a
 * date already past.
 *
 * @example
 * ```ts
 * import { parseRetryAfter } from "./backoff.ts";
 * if (parseRetryAfter("30") !== 30_000) throw new Error();
 * const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
 * if (parseRetryAfter("Wed, 21 Oct 2015 07:28:10 GMT", now) !== 10_000) throw new Error();
 * if (parseRetryAfter(null) !== undefined || parseRetryAfter("soon") !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/**
 * Waits `ms`, or less when `signal` aborts (then it resolves at once, without an
 * error): the pause of every loop that must stop promptly when it is told to.
 *
 * @example
 * ```ts
 * import { pause } from "./backoff.ts";
 * const stop = new AbortController();
 * stop.abort();
 * const at = Date.now();
 * await pause(10_000, stop.signal);
 * if (Date.now() - at > 1000) throw new Error("waited although aborted");
 * ```
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
