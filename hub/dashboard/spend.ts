/**
 * The Spend page's data: every breakdown of one period, aggregated by the ledger (the
 * daily series by role from its daily totals, the rest by `spendBy`).
 *
 * @module
 */
import { HttpError } from "@agent/net";
import type { Period } from "../config/types.ts";
import { TIME_ZONE } from "../i18n.ts";
import { periodBounds, type SpendByReport } from "../money/mod.ts";
import { nextDayStart } from "../money/periods.ts";
import type { SpendChartReader } from "../money/spend_chart.ts";
import type { DashboardSources } from "./types.ts";

const PERIODS: readonly Period[] = ["day", "week", "month"];

/** What the Spend page draws: every breakdown of one period. */
export interface DashboardSpend {
  period: Period;
  since: string;
  until: string;
  chart: ReturnType<SpendChartReader["chart"]>;
  /** Every day of the period (`YYYY-MM-DD`), the forecast's x axis. */
  period_days: string[];
  channel: SpendByReport["rows"];
  contact: SpendByReport["rows"];
  session: SpendByReport["rows"];
  total: SpendByReport["total"];
  /** Each budgeted role's cap and forecast, from the status. */
  budgets: Record<string, unknown>;
}

/** The Spend page's data for the period the query names (`month` by default). */
export function spendOf(url: URL, sources: DashboardSources): DashboardSpend {
  const period = (url.searchParams.get("period") ?? "month") as Period;
  if (!PERIODS.includes(period)) {
    throw new HttpError(400, "bad_request", { detail: "period: one of day, week, month" });
  }
  const now = sources.now();
  const { sinceMs, resetMs } = periodBounds(period, now);
  const by = (b: "channel" | "contact" | "session") =>
    sources.spendBy?.({ by: b, period }) ??
      { rows: [], since: "", until: "", total: { usd: 0, calls: 0 } };
  let channel, contact, session;
  try {
    [channel, contact, session] = [by("channel"), by("contact"), by("session")];
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(500, "ledger_unreadable");
  }
  const chart = sources.chart?.chart(sinceMs, resetMs, now) ??
    { days: [], roles: [], usd: {}, calls: [] };
  const status = sources.status() as { spend?: { roles?: unknown; forecast?: unknown } };
  return {
    period,
    since: channel.since,
    until: channel.until,
    chart,
    period_days: daysOf(sinceMs, resetMs),
    channel: channel.rows,
    contact: contact.rows,
    session: session.rows,
    total: channel.total as SpendByReport["total"],
    budgets: {
      roles: status.spend?.roles ?? {},
      forecast: status.spend?.forecast ?? {},
    },
  };
}

function daysOf(sinceMs: number, untilMs: number): string[] {
  const days: string[] = [];
  for (let day = sinceMs; day < untilMs; day = nextDayStart(day)) {
    days.push(
      Temporal.Instant.fromEpochMilliseconds(day).toZonedDateTimeISO(TIME_ZONE).toPlainDate()
        .toString(),
    );
  }
  return days;
}
