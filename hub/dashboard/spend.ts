/**
 * The Spend page's data: every breakdown of one period, aggregated by the ledger in SQL
 * (the daily series by role from its daily totals, today's by hour from the calls, the
 * rest, by job too, and the period before's total from its `spend_groups` rollup).
 *
 * @module
 */
import { HttpError } from "@agent/net";
import type { Period } from "../config/types.ts";
import { TIME_ZONE } from "../i18n.ts";
import { addAmounts, NO_AMOUNTS, type SpendAmounts } from "../spend/mod.ts";
import { periodBounds } from "../ledger/mod.ts";
import { isoWithOffset, nextDayStart } from "../ledger/periods.ts";
import { channelsOf, type GroupRow } from "../spend/rollup.ts";
import type { SpendChartReader, SpendHours } from "../spend/chart.ts";
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
  /** Today's spend by hour and role (the `day` period only; null otherwise). */
  hourly: SpendHours | null;
  /** The period before this one, whole: its bounds and what it cost. */
  previous: { since: string; until: string; usd: number; calls: number };
  channel: GroupRow[];
  contact: GroupRow[];
  session: GroupRow[];
  /** The `job` channel's spend by the job that ran it. */
  job: GroupRow[];
  total: Omit<GroupRow, "key" | "channel" | "session_id">;
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
  const reader = sources.chart;
  const before = periodBounds(period, sinceMs - 1);
  let chart, channel: GroupRow[], contact: GroupRow[], session: GroupRow[], job: GroupRow[];
  let hourly: SpendHours | null = null, previous: SpendAmounts;
  try {
    chart = reader?.chart(sinceMs, resetMs, now) ?? { days: [], roles: [], usd: {}, calls: [] };
    if (period === "day") {
      hourly = reader?.hourly(sinceMs, resetMs, now) ??
        { hours: [], elapsed: 0, roles: [], usd: {}, calls: [] };
    }
    previous = sumOf(channelsOf(reader?.groups("session", before.sinceMs, sinceMs) ?? []));
    session = reader?.groups("session", sinceMs, resetMs) ?? [];
    channel = channelsOf(session);
    contact = reader?.groups("contact", sinceMs, resetMs) ?? [];
    job = reader?.groups("job", sinceMs, resetMs) ?? [];
  } catch {
    throw new HttpError(500, "ledger_unreadable");
  }
  const total = sumOf(channel);
  const status = sources.status() as { spend?: { roles?: unknown; forecast?: unknown } };
  return {
    period,
    since: isoWithOffset(sinceMs),
    until: isoWithOffset(resetMs),
    chart,
    period_days: daysOf(sinceMs, resetMs),
    hourly,
    previous: {
      since: isoWithOffset(before.sinceMs),
      until: isoWithOffset(sinceMs),
      usd: Math.round(previous.usd * 1e6) / 1e6,
      calls: previous.calls,
    },
    channel,
    contact,
    session,
    job,
    total: { ...total, usd: Math.round(total.usd * 1e6) / 1e6 },
    budgets: {
      roles: status.spend?.roles ?? {},
      forecast: status.spend?.forecast ?? {},
    },
  };
}

function sumOf(rows: GroupRow[]): SpendAmounts {
  return rows.reduce<SpendAmounts>((sum, r) => addAmounts(sum, r), NO_AMOUNTS);
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
