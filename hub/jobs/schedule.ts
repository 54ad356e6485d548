/**
 * A job's schedule: croner's cron expressions (five fields, or six with seconds
 * first) in the job's time zone. Croner runs a fixed-time slot once on the day a DST
 * change skips or repeats its hour, so a change neither skips nor doubles a slot.
 *
 * A slot is named by its scheduled time: `<name>@<ISO instant>`, the id recorded
 * before the run so it runs at most once (see `store.ts`).
 *
 * @module
 */
import { Cron } from "croner";

/** The croner schedule of `expression` in `tz` (paused: it never fires by itself). */
export function scheduleOf(expression: string, tz: string): Cron {
  return new Cron(expression, { timezone: tz, paused: true, mode: "auto" });
}

/** The next slot strictly after `afterMs`, or `undefined` when there is none. */
export function nextSlot(cron: Cron, afterMs: number): number | undefined {
  return cron.nextRun(new Date(afterMs))?.getTime();
}

/**
 * The slots in `(fromMs, toMs]`, oldest first, at most `limit` of them (the newest
 * `limit` when there are more: older ones only count). Returns the slots and how
 * many there were.
 *
 * @example
 * ```ts
 * import { scheduleOf, slotsBetween } from "./schedule.ts";
 * const cron = scheduleOf("0 * * * *", "UTC");
 * const from = Date.UTC(2026, 0, 1, 0, 30);
 * const { slots, count } = slotsBetween(cron, from, from + 3 * 3600_000, 10);
 * if (count !== 3 || slots[0] !== Date.UTC(2026, 0, 1, 1)) throw new Error();
 * ```
 */
export function slotsBetween(
  cron: Cron,
  fromMs: number,
  toMs: number,
  limit: number,
): { slots: number[]; count: number } {
  const slots: number[] = [];
  let count = 0;
  let at = fromMs;
  // Iterating more than ~10k slots is pointless; the newest are what matter.
  for (let i = 0; i < 10_000; i++) {
    const next = nextSlot(cron, at);
    if (next === undefined || next > toMs) break;
    slots.push(next);
    if (slots.length > limit) slots.shift();
    count++;
    at = next;
  }
  return { slots, count };
}

/** The id of `name`'s slot at `slotMs`. */
export function slotId(name: string, slotMs: number): string {
  return `${name}@${new Date(slotMs).toISOString()}`;
}
