/**
 * The budget forecast: at the pace of the current period so far, when each budgeted
 * role reaches its cap, or that it will not this period.
 *
 * Method: pace = dollars spent in the period ÷ max(time elapsed, a floor), where the
 * floor is the larger of one hour and 5% of the period (1.2 hours of a day, 8.4 hours
 * of a week, about 1.5 days of a month). The floor keeps one early call from reading
 * as a runaway pace in the first hour of a period; after it, the pace is the plain
 * average. The cap is reached at `now + (cap − spent) ÷ pace`, which counts only when it
 * falls before the reset; otherwise the line shows what the period will end at.
 *
 * @module
 */
import { formatTime, type Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import { isoWithOffset } from "../ledger/periods.ts";
import { formatUsd, formatUsdAll } from "./sentences.ts";
import type { SpendObject } from "./report.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const FLOOR_SHARE = 0.05;

/** One budgeted role's forecast (the hub's `spend.forecast.<role>`). */
export interface Forecast {
  /** Dollars spent so far in the period. */
  spent_usd: number;
  /** The cap. */
  cap_usd: number;
  /** Dollars per day at the current pace. */
  pace_usd_per_day: number;
  /** What the period ends at, at this pace (at least what is spent). */
  projected_usd: number;
  /** The cap is already reached. */
  reached: boolean;
  /** When the cap is reached at this pace (ISO 8601 with offset); null when not this period. */
  reaches_at: string | null;
  /** The period's reset (ISO 8601 with offset). */
  reset_at: string;
}

/**
 * The forecast of one spend object at `nowMs`; `undefined` for a role without budget.
 *
 * @example
 * ```ts
 * import { forecastOf } from "./forecast.ts";
 * const day = { spent_usd: 0.5, cap_usd: 1, since: "2026-01-01T00:00:00+03:00",
 *   reset_at: "2026-01-02T00:00:00+03:00" } as import("./report.ts").SpendObject;
 * // Half the cap by 06:00: the rest goes by noon.
 * const f = forecastOf(day, Date.parse("2026-01-01T06:00:00+03:00"));
 * if (f?.reaches_at !== "2026-01-01T12:00:00+03:00") throw new Error(f?.reaches_at ?? "none");
 * ```
 */
export function forecastOf(entry: SpendObject, nowMs: number): Forecast | undefined {
  if (typeof entry.cap_usd !== "number" || typeof entry.spent_usd !== "number") return undefined;
  const sinceMs = Date.parse(entry.since);
  const resetMs = Date.parse(entry.reset_at);
  if (!Number.isFinite(sinceMs) || !(resetMs > sinceMs)) return undefined;
  const floor = Math.max(HOUR_MS, (resetMs - sinceMs) * FLOOR_SHARE);
  const window = Math.max(nowMs - sinceMs, floor);
  const perMs = entry.spent_usd / window;
  const reached = entry.spent_usd >= entry.cap_usd;
  const remainingMs = Math.max(0, resetMs - nowMs);
  let reachesAt: number | null = null;
  if (!reached && perMs > 0) {
    const at = nowMs + (entry.cap_usd - entry.spent_usd) / perMs;
    if (at < resetMs) reachesAt = Math.ceil(at / 60_000) * 60_000;
  }
  return {
    spent_usd: entry.spent_usd,
    cap_usd: entry.cap_usd,
    pace_usd_per_day: round(perMs * DAY_MS),
    projected_usd: round(entry.spent_usd + perMs * remainingMs),
    reached,
    reaches_at: reachesAt === null ? null : isoWithOffset(reachesAt),
    reset_at: entry.reset_at,
  };
}

/** The forecast of every budgeted role of a spend report, by role. */
export function forecastReport(
  report: Record<string, SpendObject>,
  nowMs: number,
): Record<string, Forecast> {
  const out: Record<string, Forecast> = {};
  for (const [role, entry] of Object.entries(report)) {
    const forecast = forecastOf(entry, nowMs);
    if (forecast !== undefined) out[role] = forecast;
  }
  return out;
}

/**
 * `Forecast: brain reaches $15.00 around 28.11.2026 14:00 ($2.10/day); fast not this
 * period (...)`, or `Forecast: no role has a budget.`
 */
export function forecastLine(forecasts: Record<string, Forecast>, lang: Lang): string {
  const items = Object.entries(forecasts).map(([role, f]) => {
    const [cap, projected] = formatUsdAll([f.cap_usd, f.projected_usd], lang);
    const vars = { role, cap, pace: formatUsd(f.pace_usd_per_day, lang) };
    if (f.reached) return t(lang, "forecast_reached", vars);
    if (f.reaches_at !== null) {
      return t(lang, "forecast_reaches", { ...vars, time: formatTime(Date.parse(f.reaches_at)) });
    }
    return t(lang, "forecast_not_this", {
      ...vars,
      projected,
      time: formatTime(Date.parse(f.reset_at)),
    });
  });
  return items.length === 0 ? t(lang, "forecast_none") : t(lang, "forecast_line", {
    items: items.join("; "),
  });
}

function round(usd: number): number {
  return Math.round(usd * 1e4) / 1e4;
}
