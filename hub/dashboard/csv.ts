/**
 * The Spend page's CSV downloads: one breakdown of a period as RFC 4180 text. A cell
 * that a spreadsheet would read as a formula (`=`, `+`, `-`, `@` first: a session id or
 * a contact's name could be one) gets a leading `'`.
 *
 * @module
 */
import { HttpError } from "@agent/net";
import type { DashboardSpend } from "./spend.ts";

/** One CSV cell. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function lines(rows: unknown[][]): string {
  return rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

const TOKENS = [
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
] as const;

/**
 * The breakdown `by` (`day`, `channel`, `contact`, `session`, `job`) of `spend` as CSV.
 * Over today `day` is by hour, as the page's chart is: one row per hour begun, named by
 * its start (`YYYY-MM-DD HH:MM`, Istanbul).
 */
export function spendCsv(spend: DashboardSpend, by: string): string {
  if (by === "day") {
    const hourly = spend.hourly;
    const { roles, usd, calls } = hourly ?? spend.chart;
    const keys = hourly === null
      ? spend.chart.days
      : hourly.hours.slice(0, hourly.elapsed).map((hour) => `${spend.period_days[0]} ${hour}`);
    return lines([
      [hourly === null ? "day" : "hour", ...roles.map((r) => `${r}_usd`), "total_usd", "calls"],
      ...keys.map((key, i) => {
        const perRole = roles.map((r) => usd[r]?.[i] ?? 0);
        const total = Math.round(perRole.reduce((a, b) => a + b, 0) * 1e6) / 1e6;
        return [key, ...perRole, total, calls[i] ?? 0];
      }),
    ]);
  }
  if (by !== "channel" && by !== "contact" && by !== "session" && by !== "job") {
    throw new HttpError(400, "bad_request", {
      detail: "by: one of day, channel, contact, session, job",
    });
  }
  const rows = spend[by];
  const head = by === "session" ? ["channel", "session_id"] : [by === "channel" ? "channel" : by];
  return lines([
    [...head, "usd", "calls", "unpriced_calls", "estimated_calls", ...TOKENS],
    ...rows.map((r) => [
      ...(by === "session" ? [r.channel, r.session_id ?? ""] : [r.key]),
      r.usd,
      r.calls,
      r.unpriced_calls,
      r.estimated_calls,
      ...TOKENS.map((t) => r[t]),
    ]),
  ]);
}
