/**
 * The start barrier of the reliability tests that race several processes: each child
 * writes `<folder>/go.ready-<pid>` once it is loaded, then waits for `<folder>/go`. The
 * test writes `go` when all are ready, so the race starts at once whatever the load,
 * instead of after a guessed sleep.
 *
 * @module
 */
import { until } from "../_poll.ts";

/** Waits until `count` children have written their ready file in `folder`. */
export async function untilReady(folder: string, count: number): Promise<void> {
  const ready = () =>
    [...Deno.readDirSync(folder)].filter((e) => e.name.startsWith("go.ready-")).length;
  await until(() => `${count} processes ready (${ready()} are)`, () => ready() >= count, {
    timeoutMs: 60_000,
  });
}
