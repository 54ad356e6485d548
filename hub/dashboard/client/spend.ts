/**
 * The Spend page: for a chosen period, spend by day (today: by hour) stacked by role,
 * each role's cumulative spend against its own cap with its forecast, and by channel,
 * contact, session and job (the top ten and the rest as "Other"); each chart with a
 * sortable table and a CSV download, and the period before's total beside this one's.
 * The ledger aggregates; the page only draws. Every money column shows the digits that
 * make its rows add up to its total.
 *
 * @module
 */
import { get, getRaw } from "./api.ts";
import { bars, stackedBars } from "./charts.ts";
import { h, replace } from "./dom.ts";
import { count, shortDay, t, usdAll, usdColumn, usdFixed } from "./i18n.ts";
import { cumulativeSection } from "./spend_cumulative.ts";
import { spendTable, type TableRow, type TableView } from "./spend_table.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const PERIODS = ["day", "week", "month"] as const;

/** How many rows a breakdown's chart and first table show before "Other". */
const TOP = 10;

/** Whether the page is as narrow as a phone, where long tables start closed. */
function phone(): boolean {
  return matchMedia("(max-width: 600px)").matches;
}

/** Renders the page for `period` into `main`. */
export async function spend(main: HTMLElement, period: string): Promise<void> {
  const p = (PERIODS as readonly string[]).includes(period) ? period : "month";
  const data = await get<Json>(`spend?period=${p}`);
  // Arrow keys (and typed letters) on a closed select change its value at once: that only
  // moves the choice, and Enter or leaving the select shows it (W12: each arrow navigated).
  // A choice made with the mouse or in the opened list shows at once.
  let moved = false;
  const show = (value: string) => {
    if (value !== p) location.hash = `#/spend/${value}`;
  };
  const select = h(
    "select",
    {
      id: "period",
      onkeydown: (event: Event) => {
        const e = event as KeyboardEvent;
        moved = /^(Arrow|Page)|^(Home|End)$/.test(e.key) || (e.key.length === 1 && e.key !== " ");
        if (e.key === "Enter") show((e.target as HTMLSelectElement).value);
      },
      onchange: (e: Event) => {
        if (!moved) show((e.target as HTMLSelectElement).value);
      },
      onblur: (e: Event) => show((e.target as HTMLSelectElement).value),
    },
    PERIODS.map((value) =>
      h("option", { value, selected: value === p }, t(`period_${value}` as "period_day"))
    ),
  );
  const periodWord = t(`period_${p}` as "period_day");
  const [total, previous] = usdAll([data.total.usd, data.previous?.usd ?? 0]);
  const sections: HTMLElement[] = [
    timeSection(data, p),
    cumulativeSection(data, p),
    ...(["channel", "contact", "session", "job"] as const).map((by) =>
      breakdownSection(by, p, data[by])
    ),
  ];
  replace(
    main,
    h("h1", {}, t("nav_spend")),
    h("div", { class: "toolbar" }, h("label", { for: "period" }, t("period")), select),
    h(
      "p",
      { class: "lead" },
      t("spend_title", { period: periodWord, total, calls: count(data.total.calls) }),
    ),
    data.previous
      ? h(
        "p",
        { class: "muted", id: "previous" },
        t(`previous_${p}` as "previous_day", { usd: previous, calls: count(data.previous.calls) }),
      )
      : null,
    sections,
  );
}

/**
 * Spend over time stacked by role: by day over a week or month, by hour over today.
 * The table lists the days (hours) with calls, in a grid a phone keeps; the chart and the
 * CSV every day.
 */
function timeSection(data: Json, period: string): HTMLElement {
  const hourly = period === "day" ? data.hourly : null;
  const roles: string[] = hourly ? hourly.roles : data.chart.roles;
  const usd: Record<string, number[]> = hourly ? hourly.usd : data.chart.usd;
  const calls: number[] = hourly ? hourly.calls : data.chart.calls;
  const labels: string[] = hourly
    ? hourly.hours.slice(0, hourly.elapsed)
    : data.chart.days.map(shortDay);
  const keys: string[] = hourly ? labels : data.chart.days;
  const at = labels.map((_, i) => i).filter((i) => calls[i]);
  const grid = at.map((i) => roles.map((r) => usd[r]![i]!));
  const digits = tableDigits(grid);
  const fmt = (v: number) => `$${usdFixed(v, digits)}`;
  const rowSum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const columnSums = roles.map((_, c) => rowSum(grid.map((row) => row[c]!)));
  const title = hourly ? "by_hour" : "by_day";
  const head = [t(hourly ? "col_hour" : "col_day"), ...roles, t("total")];
  const view = (): TableView => ({
    rows: at.map((i, n) => ({
      cells: [labels[i]!, ...grid[n]!.map(fmt), fmt(rowSum(grid[n]!))],
      keys: [keys[i]!, ...grid[n]!, rowSum(grid[n]!)],
    })),
    foot: at.length === 1 ? [] : [{
      cells: [t("total"), ...columnSums.map(fmt), fmt(rowSum(columnSums))],
      keys: [],
    }],
  });
  return section(
    title,
    "day",
    period,
    labels.length === 0 || roles.length === 0 ? null : stackedBars(
      chartAlt(t(title), labels, grid.map(rowSum), at),
      labels,
      roles.map((role) => ({ name: role, values: usd[role]! })),
      head[0],
    ),
    at.length === 0 ? null : spendTable(head, view, { count: at.length, kind: "days" }),
  );
}

/**
 * A bar chart's text alternative (W12): its title, its sum and its highest bar; the table
 * beside it lists every value. `at` maps `totals` to `labels` where they differ.
 */
function chartAlt(title: string, labels: string[], totals: number[], at?: number[]): string {
  const top = totals.reduce((best, v, i) => (v > totals[best]! ? i : best), 0);
  const [all, high] = usdAll([totals.reduce((a, b) => a + b, 0), totals[top] ?? 0]);
  const label = labels[at ? at[top]! : top] ?? "";
  return t("chart_alt", { title, n: count(totals.length), total: all!, top: label, usd: high! });
}

/**
 * One number of decimals for a table of amounts whose rows and columns each add up:
 * the most any row or column needs (`usdColumn()`).
 */
function tableDigits(grid: number[][]): number {
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const width = grid[0]?.length ?? 0;
  const lines = [
    ...grid,
    ...Array.from({ length: width }, (_, c) => grid.map((row) => row[c]!)),
    Array.from({ length: width }, (_, c) => sum(grid.map((row) => row[c]!))),
  ];
  return Math.max(2, ...lines.map((l) => usdColumn(l, sum(l)).decimals));
}

/** By channel, contact, session or job: the top rows, the rest as one, a total. */
function breakdownSection(
  by: "channel" | "contact" | "session" | "job",
  period: string,
  rows: Json[],
): HTMLElement {
  const labels = rows.map((r) => by === "session" ? `${r.channel} ${r.session_id ?? "-"}` : r.key);
  const all = sum(rows);
  const cut = rows.length > TOP + 1;
  const rest = cut ? sum(rows.slice(TOP)) : null;
  const other = t("other_rows", { n: count(rows.length - TOP) });
  const view = (whole: boolean): TableView => {
    const shown = whole || !cut ? rows : rows.slice(0, TOP);
    const extra = !whole && rest ? [rest] : [];
    const money = usdColumn([...shown, ...extra].map((r) => r.usd), all.usd);
    return {
      rows: shown.map((r, i) => row(labels[i]!, r, money.parts[i]!)),
      // One row is its own total.
      foot: rows.length === 1 ? [] : [
        ...extra.map((r) => row(other, r, money.parts[shown.length]!)),
        row(t("total"), all, money.total),
      ],
    };
  };
  const chartLabels = cut ? [...labels.slice(0, TOP), other] : labels;
  const chartValues = [...rows.slice(0, cut ? TOP : rows.length), ...(rest ? [rest] : [])]
    .map((r) => r.usd);
  const title = `by_${by}` as "by_channel";
  const estimated = rows.some((r) => r.estimated_calls > 0);
  return section(
    title,
    by,
    period,
    rows.length === 0
      ? null
      : bars(chartAlt(t(title), chartLabels, chartValues), chartLabels, chartValues, {
        x: t("col_key"),
        y: t("col_usd"),
      }),
    rows.length === 0 ? null : spendTable(
      [t("col_key"), t("col_usd"), t("col_calls"), t("col_tokens")],
      view,
      { count: rows.length, top: cut ? TOP : rows.length, open: !(phone() && rows.length > 3) },
    ),
    estimated ? h("p", { class: "muted estimated-note" }, t("estimated_mark")) : null,
  );
}

/** A breakdown's row; its dollars marked `≈` where some calls were estimated. */
function row(label: string, r: Json, money: string): TableRow {
  const input = r.input_tokens + r.cache_read_tokens + r.cache_write_tokens;
  const estimated = r.estimated_calls > 0;
  return {
    cells: [
      label,
      `${estimated ? "≈ " : ""}$${money}`,
      count(r.calls),
      `${count(input)} / ${count(r.output_tokens)}`,
    ],
    keys: [label, r.usd, r.calls, input],
    titles: [
      label,
      estimated ? t("estimated_title", { n: count(r.estimated_calls) }) : undefined,
    ],
  };
}

const AMOUNTS = [
  "usd",
  "calls",
  "estimated_calls",
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
] as const;

/** The rows added up (what "Other" and "Total" show). */
function sum(rows: Json[]): Json {
  const out: Json = {};
  for (const k of AMOUNTS) out[k] = rows.reduce((a, r) => a + (r[k] ?? 0), 0);
  out.usd = Math.round(out.usd * 1e6) / 1e6;
  return out;
}

function section(
  title: "by_day" | "by_hour" | "by_channel" | "by_contact" | "by_session" | "by_job",
  by: string,
  period: string,
  chart: HTMLElement | null,
  table: HTMLElement | null,
  note: HTMLElement | null = null,
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
    table === null || chart === null ? h("p", { class: "muted" }, t("nothing")) : chart,
    table,
    note,
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
