/**
 * Budget periods: calendar days, weeks (from Monday) and months (from the 1st) in
 * Europe/Istanbul, computed with `Temporal` so the zone's rules (not a fixed offset)
 * decide where a period starts.
 *
 * @module
 */
import { TIME_ZONE } from "../i18n.ts";
import type { Period } from "../config/types.ts";

/** The current period of a budget: its first instant and the instant it resets. */
export interface PeriodBounds {
  /** Start of the current period, epoch ms (inclusive). */
  sinceMs: number;
  /** Start of the next period, epoch ms. */
  resetMs: number;
}

function zoned(ms: number): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(TIME_ZONE);
}

/**
 * The bounds of the calendar `period` that contains `nowMs`, in Europe/Istanbul:
 * a day from midnight, a week from Monday 00:00, a month from the 1st 00:00.
 *
 * @example
 * ```ts
 * import { periodBounds } from "./periods.ts";
 * // Sunday 31 May 2026, 23:30 in Istanbul (20:30 UTC)
 * const b = periodBounds("month", Date.UTC(2026, 4, 31, 20, 30));
 * if (b.resetMs !== Date.UTC(2026, 4, 31, 21, 0)) throw new Error("month resets on the 1st");
 * ```
 */
export function periodBounds(period: Period, nowMs: number): PeriodBounds {
  const day = zoned(nowMs).startOfDay();
  let start: Temporal.ZonedDateTime;
  let next: Temporal.ZonedDateTime;
  switch (period) {
    case "day":
      start = day;
      next = day.add({ days: 1 });
      break;
    case "week":
      start = day.subtract({ days: day.dayOfWeek - 1 });
      next = start.add({ weeks: 1 });
      break;
    case "month":
      start = day.with({ day: 1 });
      next = start.add({ months: 1 });
      break;
    default:
      throw new RangeError(`Cannot compute a budget period: unknown period '${String(period)}'`);
  }
  // `with`/`add` keep the wall-clock time; start of day again guards zones whose
  // midnight does not exist on a given date.
  return {
    sinceMs: start.startOfDay().epochMilliseconds,
    resetMs: next.startOfDay().epochMilliseconds,
  };
}

/**
 * The first instant of the Europe/Istanbul calendar day containing `ms`; the key of
 * the ledger's daily totals.
 */
export function dayStart(ms: number): number {
  return zoned(ms).startOfDay().epochMilliseconds;
}

/** The first instant of the Europe/Istanbul calendar day after the one containing `ms`. */
export function nextDayStart(ms: number): number {
  return zoned(ms).startOfDay().add({ days: 1 }).startOfDay().epochMilliseconds;
}

/**
 * An instant as ISO 8601 with the Istanbul offset, to the second.
 *
 * @example
 * ```ts
 * import { isoWithOffset } from "./periods.ts";
 * if (isoWithOffset(Date.UTC(2026, 11, 31, 21)) !== "2027-01-01T00:00:00+03:00") throw new Error();
 * ```
 */
export function isoWithOffset(ms: number): string {
  return zoned(ms).toString({ timeZoneName: "never", smallestUnit: "second" });
}

/** The words a spend line uses for a period's current span. */
export type PeriodWord = "today" | "this_week" | "this_month";

/** Which span word describes `period`: `today`, `this week`, `this month`. */
export function periodWord(period: Period): PeriodWord {
  return period === "day" ? "today" : period === "week" ? "this_week" : "this_month";
}
