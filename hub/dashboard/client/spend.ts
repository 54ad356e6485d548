/**
 * The Spend page: for a chosen period, spend by day stacked by role, the cumulative
 * spend against each cap with the forecast, and by channel, contact, session and job; each
 * chart with its table and a CSV download. The ledger aggregates; the page only draws.
 *
 * @module
 */
import { get, getRaw } from "./api.ts";
import { bars, cumulative, stackedBars } from "./charts.ts";
import { h, replace } from "./dom.ts";
import { count, shortDay, t, usd } from "./i18n.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const PERIODS = ["day", "week", "month"] as const;

/** Renders the page for `period` into `main`. */
export async function spend(main: HTMLElement, period: string): Promise<void> {
  const p = (PERIODS as readonly string[]).includes(period) ? period : "month";
  const data = await get<Json>(`spend?period=${p}`);
  const select = h(
    "select",
    {
      id: "period",
      onchange: (e: Event) => {
        location.hash = `#/spend/${(e.target as HTMLSelectElement).value}`;
      },
    },
    PERIODS.map((value) =>
      h("option", { value, selected: value === p }, t(`period_${value}` as "period_day"))
    ),
  );
  const chart = data.chart;
  const periodWord = t(`period_${p}` as "period_day");
  const sections: HTMLElement[] = [
    section(
      "by_day",
      "day",
      p,
      chart.days.length === 0 || chart.roles.length === 0 ? null : stackedBars(
        t("by_day"),
        chart.days.map(shortDay),
        chart.roles.map((role: string) => ({ name: role, values: chart.usd[role] })),
      ),
      [t("col_day"), ...chart.roles, t("total")],
      // The table lists the days with calls; the chart and the CSV every day.
      chart.days.flatMap((day: string, i: number) => {
        if (!chart.calls[i]) return [];
        const values = chart.roles.map((r: string) => chart.usd[r][i] as number);
        return [[
          shortDay(day),
          ...values.map(money),
          money(values.reduce((a: number, b: number) => a + b, 0)),
        ]];
      }),
    ),
    cumulativeSection(data, p),
    ...(["channel", "contact", "session", "job"] as const).map((by) => {
      const rows: Json[] = data[by];
      const labels = rows.map((r) =>
        by === "session" ? `${r.channel} ${r.session_id ?? "-"}` : r.key
      );
      return section(
        `by_${by}` as "by_channel",
        by,
        p,
        rows.length === 0
          ? null
          : bars(t(`by_${by}` as "by_channel"), labels.map(shorten), rows.map((r) => r.usd)),
        [t("col_key"), t("col_usd"), t("col_calls"), t("col_tokens")],
        rows.map((r, i) => [
          labels[i]!,
          money(r.usd),
          count(r.calls),
          `${count(r.input_tokens + r.cache_read_tokens + r.cache_write_tokens)} / ${
            count(r.output_tokens)
          }`,
        ]),
      );
    }),
  ];
  replace(
    main,
    h("h1", {}, t("nav_spend")),
    h("div", { class: "toolbar" }, h("label", { for: "period" }, t("period")), select),
    h(
      "p",
      { class: "lead" },
      t("spend_title", {
        period: periodWord,
        total: usd(data.total.usd),
        calls: count(data.total.calls),
      }),
    ),
    sections,
  );
}

function money(v: number): string {
  return `$${usd(v)}`;
}

function shorten(label: string): string {
  return label.length > 18 ? `${label.slice(0, 17)}…` : label;
}

function section(
  title: "by_day" | "by_channel" | "by_contact" | "by_session" | "by_job",
  by: string,
  period: string,
  chart: HTMLElement | null,
  head: string[],
  rows: string[][],
): HTMLElement {
  const id = `s-${by}`;
  return h(
    "section",
    { class: "card wide", "aria-labelledby": id },
    h(
      "div",
      { class: "section-head" },
      h("h2", { id }, t(title)),
      h("button", {
        type: "button",
        "data-csv": by,
        onclick: () => void downloadCsv(by, period),
      }, t("download")),
    ),
    rows.length === 0 || chart === null ? h("p", { class: "muted" }, t("nothing")) : chart,
    rows.length === 0 ? null : table(head, rows),
  );
}

function table(head: string[], rows: string[][]): HTMLElement {
  return h(
    "div",
    { class: "table-wrap", tabindex: 0, role: "region", "aria-label": head.join(", ") },
    h(
      "table",
      { class: "spend" },
      h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))),
      h(
        "tbody",
        {},
        rows.map((r) =>
          h(
            "tr",
            {},
            // The labels name each figure on a phone, where a row is a block of lines.
            r.map((c, i) =>
              i === 0 ? h("th", { scope: "row" }, c) : h("td", { "data-label": head[i] }, c)
            ),
          )
        ),
      ),
    ),
  );
}

function cumulativeSection(data: Json, period: string): HTMLElement {
  const chart = data.chart;
  const all: string[] = data.period_days;
  const totals = chart.days.map((_: string, i: number) =>
    chart.roles.reduce((sum: number, r: string) => sum + (chart.usd[r][i] ?? 0), 0)
  );
  const spent: (number | null)[] = [];
  let running = 0;
  for (let i = 0; i < all.length; i++) {
    if (i < totals.length) {
      running += totals[i];
      spent.push(Math.round(running * 1e6) / 1e6);
    } else spent.push(null);
  }
  // The forecast: from today's total at the pace the budgets' forecasts give.
  const forecasts = Object.values(data.budgets.forecast ?? {}) as Json[];
  const pace = forecasts.reduce((sum, f) => sum + (f.pace_usd_per_day ?? 0), 0);
  const today = totals.length - 1;
  const forecast = all.map((_, i) =>
    i < today ? null : Math.round((running + pace * (i - today)) * 1e6) / 1e6
  );
  const caps = Object.values(data.budgets.roles ?? {}).filter((r: Json) =>
    r.period === period && typeof r.cap_usd === "number"
  ) as Json[];
  const cap = caps.length === 0 ? null : caps.reduce((sum, r) => sum + r.cap_usd, 0);
  const id = "s-cumulative";
  return h(
    "section",
    { class: "card wide", "aria-labelledby": id },
    h("h2", { id }, t("cumulative")),
    totals.length === 0 ? h("p", { class: "muted" }, t("nothing")) : cumulative(
      t("cumulative"),
      all.map(shortDay),
      spent,
      forecast,
      cap,
      { spent: t("spent_series"), forecast: t("forecast_series"), cap: t("cap") },
    ),
  );
}

/**
 * Fetches one breakdown as CSV (with the session header, which a plain link cannot
 * carry) and hands it to the browser as a download.
 */
async function downloadCsv(by: string, period: string): Promise<void> {
  const blob = await (await getRaw(`spend.csv?by=${by}&period=${period}`)).blob();
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: `spend-${by}-${period}.csv` });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
