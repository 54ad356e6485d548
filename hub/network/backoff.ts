/**
 * Waits between retries, for the network service and the outbox.
 *
 * @module
 */

/**
 * The wait before retry `attempt` (0 first): `base · 2^attempt` with ±20% jitter, which
 * keeps many hubs from retrying in step; never above `max`, jitter included.
 *
 * @example
 * ```ts
 * import { backoffDelay } from "./backoff.ts";
 * if (backoffDelay(30, 1000, 60_000, () => 0.999) > 60_000) throw new Error("over the cap");
 * ```
 */
export function backoffDelay(
  attempt: number,
  base: number,
  max: number,
  random: () => number = Math.random,
): number {
  const capped = Math.min(max, base * 2 ** Math.min(attempt, 16));
  return Math.round(Math.min(max, capped * (0.8 + random() * 0.4)));
}
