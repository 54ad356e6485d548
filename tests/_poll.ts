/**
 * The one poller of the tests: wait until a condition holds instead of sleeping for a
 * fixed time. A fixed sleep is either too short on a loaded machine (the test flakes)
 * or too long on a quiet one (the suite crawls); polling ends as soon as the condition
 * holds and gives up after a timeout long enough for a 2-core machine running test
 * files side by side.
 *
 * Used by the end-to-end tests in `tests/` and by the unit tests beside the code
 * (`deno task lint:doors` lets a member's test files import `tests/_*.ts`).
 *
 * @module
 */

/** How long {@linkcode until} waits by default before it gives up, in milliseconds. */
export const UNTIL_TIMEOUT_MS = 30_000;

/** How often {@linkcode until} looks by default, in milliseconds. */
export const UNTIL_INTERVAL_MS = 20;

/** Options for {@linkcode until}. */
export interface UntilOptions {
  /** Give up after this many milliseconds. @default {UNTIL_TIMEOUT_MS} */
  timeoutMs?: number;
  /** Milliseconds between two looks. @default {UNTIL_INTERVAL_MS} */
  intervalMs?: number;
}

/** A value {@linkcode until} keeps waiting on. */
type Falsy = false | 0 | "" | null | undefined;

/**
 * Calls `check` until it returns a truthy value, and returns that value. A `check` that
 * throws counts as "not yet" (so an assertion can be polled); on timeout the error
 * names `what` and carries the last thrown error as its cause and in its message.
 *
 * `what` says what is awaited ("the hub answers"); a function is called only when the
 * wait fails, to describe the state then.
 *
 * @example
 * ```ts
 * import { until } from "./_poll.ts";
 * let n = 0;
 * const got = await until("n reaches 3", () => ++n >= 3 && n);
 * if (got !== 3) throw new Error("until() returns the truthy value");
 * ```
 */
export async function until<T>(
  what: string | (() => string),
  check: () => T | Promise<T>,
  options: UntilOptions = {},
): Promise<Exclude<T, Falsy>> {
  const timeoutMs = options.timeoutMs ?? UNTIL_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? UNTIL_INTERVAL_MS;
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Exclude<T, Falsy>;
      last = undefined;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= end) break;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const name = typeof what === "string" ? what : what();
  const why = last === undefined ? "" : `: ${last instanceof Error ? last.message : String(last)}`;
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${name}${why}`, { cause: last });
}
