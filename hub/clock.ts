/**
 * The time jobs and budgets run by, as a value a test can drive: the job scheduler arms
 * its one timer on a {@linkcode Clock}, and the hub hands the same clock's `now` to the
 * router and the budget watch, so a budget period and a job's slot agree on the time.
 * Production uses {@linkcode SYSTEM_CLOCK}; a unit test moves a {@linkcode ManualClock}
 * with `advance()`, and an end-to-end test steps a hub process's clock through a file
 * ({@linkcode testClock}, honoured only when the hub runs from a checkout), so no test
 * sleeps for a schedule.
 *
 * @module
 */

/** A clock: the time, and a timer that fires when the clock reaches a moment. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `fire` once the clock has moved `ms` on; returns what cancels it. */
  after(ms: number, fire: () => void): () => void;
}

/** The machine's clock and `setTimeout`. */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  after(ms, fire) {
    const id = setTimeout(fire, Math.max(0, ms));
    return () => clearTimeout(id);
  },
};

interface Timer {
  at: number;
  fire: () => void;
}

/**
 * A clock that moves only when told: timers fire, in time order, as {@linkcode
 * ManualClock.advance} or {@linkcode ManualClock.set} passes their moment.
 *
 * @example
 * ```ts
 * import { ManualClock } from "./clock.ts";
 * const clock = new ManualClock(1_000);
 * const fired: number[] = [];
 * clock.after(500, () => fired.push(clock.now()));
 * clock.advance(499);
 * clock.advance(1);
 * if (fired.join() !== "1500") throw new Error(fired.join());
 * ```
 */
export class ManualClock implements Clock {
  #now: number;
  #timers = new Set<Timer>();

  /** A clock standing at `startMs` (epoch ms). */
  constructor(startMs: number) {
    this.#now = startMs;
  }

  /** The clock's time. */
  now(): number {
    return this.#now;
  }

  /**
   * Calls `fire` when the clock reaches `now() + ms`; a moment already reached (`ms` of 0
   * or less) fires at once, after the caller's turn, as `setTimeout` would.
   */
  after(ms: number, fire: () => void): () => void {
    if (ms <= 0) {
      let cancelled = false;
      queueMicrotask(() => {
        if (!cancelled) fire();
      });
      return () => {
        cancelled = true;
      };
    }
    const timer = { at: this.#now + ms, fire };
    this.#timers.add(timer);
    return () => this.#timers.delete(timer);
  }

  /** Moves the clock `ms` on, firing the timers it passes. */
  advance(ms: number): void {
    this.set(this.#now + ms);
  }

  /** Moves the clock to `ms` (never back), firing the timers it passes, oldest first. */
  set(ms: number): void {
    if (ms < this.#now) return;
    for (;;) {
      let next: Timer | undefined;
      for (const timer of this.#timers) {
        if (timer.at <= ms && (next === undefined || timer.at < next.at)) next = timer;
      }
      if (next === undefined) break;
      this.#timers.delete(next);
      this.#now = Math.max(this.#now, next.at);
      next.fire();
    }
    this.#now = ms;
  }

  /** How many timers wait (tests). */
  get waiting(): number {
    return this.#timers.size;
  }
}

/** How often a file-stepped clock looks at its file. */
const FILE_POLL_MS = 20;

/**
 * The clock a hub process takes from a test: `AGENT_TEST_CLOCK` names a file holding
 * epoch milliseconds, which the test rewrites to step the clock (read every 20 ms; a
 * missing or unreadable file leaves it where it was). Honoured only when this module
 * runs from a checkout (a `file:` URL ending in `hub/clock.ts`): the bundle, a
 * compiled binary and a published package ignore it. `undefined` otherwise; `close()`
 * stops the look at the file.
 */
export function testClock(
  env: Readonly<Record<string, string | undefined>>,
  moduleUrl: string = import.meta.url,
): (Clock & { close(): void }) | undefined {
  const file = testClockFile(env, moduleUrl);
  if (file === undefined) return undefined;
  const read = () => readClockFile(file);
  const clock = new ManualClock(read() ?? Date.now());
  const id = setInterval(() => {
    const ms = read();
    if (ms !== undefined) clock.set(ms);
  }, FILE_POLL_MS);
  // The hub's own work keeps it alive; this look never does.
  Deno.unrefTimer(id);
  return {
    now: () => clock.now(),
    after: (ms, fire) => clock.after(ms, fire),
    close: () => clearInterval(id),
  };
}

/**
 * The time an `agent net` run goes by when a test names a clock file: `AGENT_TEST_CLOCK`
 * as {@linkcode testClock} reads it, read again at every call (a run lives a second;
 * no timer watches the file), the machine's time while the file is missing. The outbox
 * waits 5 s before its first retry; a test moves this clock past that instead of
 * running `agent net poll --once` until the seconds have passed. Honoured only from a
 * checkout, like {@linkcode testClock}; `undefined` otherwise.
 */
export function testNow(
  env: Readonly<Record<string, string | undefined>>,
  moduleUrl: string = import.meta.url,
): (() => number) | undefined {
  const file = testClockFile(env, moduleUrl);
  if (file === undefined) return undefined;
  return () => readClockFile(file) ?? Date.now();
}

/** The clock file a test names, when this module runs from a checkout; else `undefined`. */
function testClockFile(
  env: Readonly<Record<string, string | undefined>>,
  moduleUrl: string,
): string | undefined {
  const file = env.AGENT_TEST_CLOCK?.trim();
  if (!file || !moduleUrl.startsWith("file:") || !moduleUrl.endsWith("/hub/clock.ts")) {
    return undefined;
  }
  return file;
}

/** The epoch milliseconds in a clock file; `undefined` when missing or not a time. */
function readClockFile(file: string): number | undefined {
  try {
    const ms = Number(Deno.readTextFileSync(file).trim());
    return Number.isFinite(ms) && ms > 0 ? ms : undefined;
  } catch {
    return undefined;
  }
}
