/**
 * The Spend page's "spent so far" section: one line per role, each against its own cap
 * and with its own forecast (a role budgeted by the day is not measured against the
 * month's cap of another, nor its day's pace added to a month's forecast), by day over a
 * week or month and by hour over today; under the chart, one sentence per role against
 * its cap in the cap's own period, as the overview says it.
 *
 * @module
 */
import { cumulative, type RoleLine } from "./charts.ts";
import { h } from "./dom.ts";
import { shortDay, t, time, usdAll } from "./i18n.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const HOURS_PER_DAY = 24;

/** The section for the page's data of `period`. */
export function cumulativeSection(data: Json, period: string): HTMLElement {
  const hourly = period === "day" ? data.hourly : null;
  const roles: string[] = hourly ? hourly.roles : data.chart.roles;
  const usd: Record<string, number[]> = hourly ? hourly.usd : data.chart.usd;
  // The x axis runs to the reset; the spent lines stop at now.
  const labels: string[] = hourly ? hourly.hours : data.period_days.map(shortDay);
  const elapsed: number = hourly ? hourly.elapsed : data.chart.days.length;
  const budgets = data.budgets.roles ?? {};
  const forecasts = data.budgets.forecast ?? {};
  const capped = Object.keys(budgets).filter((r) =>
    budgets[r].period === period && typeof budgets[r].cap_usd === "number"
  );
  const drawn = [...roles, ...capped.filter((r) => !roles.includes(r))];
  const lines: RoleLine[] = drawn.map((role, index) => {
    const spent: (number | null)[] = [];
    let running = 0;
    for (let i = 0; i < labels.length; i++) {
      running += i < elapsed ? usd[role]?.[i] ?? 0 : 0;
      spent.push(i < elapsed ? round(running) : null);
    }
    const own = capped.includes(role);
    const pace = own ? forecasts[role]?.pace_usd_per_day : undefined;
    const step = typeof pace === "number" ? (hourly ? pace / HOURS_PER_DAY : pace) : null;
    const now = elapsed - 1;
    return {
      index,
      spent,
      forecast: step === null
        ? null
        : labels.map((_, i) => (i < now ? null : round(running + step * (i - now)))),
      cap: own ? budgets[role].cap_usd : null,
      names: {
        spent: t("series_spent", { role }),
        forecast: t("series_forecast", { role }),
        cap: t("series_cap", { role }),
      },
    };
  });
  const title = t(hourly ? "cumulative_today" : "cumulative_roles");
  const id = "s-cumulative";
  return h(
    "section",
    { class: "card wide", "aria-labelledby": id },
    h("h2", { id }, title),
    elapsed === 0 || lines.length === 0 ? h("p", { class: "muted" }, t("nothing")) : cumulative(
      linesAlt(title, lines, drawn),
      labels,
      lines,
      t(hourly ? "col_hour" : "col_day"),
    ),
    h(
      "ul",
      { class: "role-lines" },
      Object.keys(budgets).map((role) => roleLine(role, budgets, forecasts, period)),
    ),
  );
}

/** `brain: $12.40 of $15.00 this month · at this pace $17.80 by the reset`. */
function roleLine(role: string, budgets: Json, forecasts: Json, period: string): HTMLElement {
  const r = budgets[role];
  if (typeof r.cap_usd !== "number") {
    return h("li", {}, t("no_budget", { role, spent: usdAll([r.spent_usd ?? 0])[0] }));
  }
  const f = forecasts[role];
  const [spent, cap, projected] = usdAll([r.spent_usd, r.cap_usd, f?.projected_usd ?? 0]);
  return h(
    "li",
    { "data-role": role },
    t("gauge", { role, spent, cap, period: t(`period_${r.period}` as "period_day") }),
    f ? ` · ${t("forecast", { projected })}` : "",
    f?.reaches_at && !f.reached ? ` · ${t("reaches", { time: time(f.reaches_at) })}` : "",
    r.period === period ? "" : ` (${
      t("cap_other_period", {
        budget_period: t(`budget_period_${r.period}` as "budget_period_day"),
      })
    })`,
  );
}

function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/** The cumulative chart's text alternative (W12): each role's spend so far. */
function linesAlt(title: string, lines: RoleLine[], roles: string[]): string {
  const last = lines.map((l) => l.spent.findLast((v) => v !== null) ?? 0);
  const usd = usdAll(last);
  const text = lines.map((l, i) => `${roles[l.index] ?? ""} $${usd[i]}`).join(", ");
  return t("chart_alt_lines", { title, lines: text });
}
