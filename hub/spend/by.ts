/**
 * Spend broken down: by channel, by contact (network turns, by the peer's address and
 * the sub-agent that answered), by session, by purpose (answers, and the summaries
 * that fold long sessions: `compaction`), by scheduled job (its runs' sessions are
 * `job-<name>-…`), or as a daily series in Europe/Istanbul
 * days, over one budget period. `agent spend --by` and the hub's `GET /spend?by=`
 * show the same rows.
 *
 * @module
 */
import type { AgentConfig, Period } from "../config/types.ts";
import { formatTime, type Lang, TIME_ZONE } from "../i18n.ts";
import { t } from "./_messages.ts";
import type { Ledger } from "../ledger/ledger.ts";
import type { SpentTotals, TokenTotals } from "../ledger/types.ts";
import { isoWithOffset, nextDayStart, periodBounds, periodWord } from "../ledger/periods.ts";
import { formatCount, formatUsdColumn } from "./usd_format.ts";

/** What spend is grouped by. */
export const SPEND_BY = ["channel", "contact", "session", "purpose", "day", "job"] as const;

/** One of {@linkcode SPEND_BY}. */
export type SpendBy = typeof SPEND_BY[number];

/** Whether `value` is one of {@linkcode SPEND_BY}. */
export function isSpendBy(value: unknown): value is SpendBy {
  return (SPEND_BY as readonly unknown[]).includes(value);
}

/** One row of a breakdown. */
export interface SpendByRow extends TokenTotals {
  /**
   * The group: a channel, `<address>[/<sub>]`, `<channel> <session id>`, a purpose
   * (`turn`, `compaction`), or `YYYY-MM-DD`.
   */
  key: string;
  /** The channel (channel, contact and session rows). */
  channel?: string;
  /** The session id (session rows; null for calls without one). */
  session_id?: string | null;
  usd: number;
  calls: number;
  unpriced_calls: number;
  /** Calls whose tokens were estimated (the provider's usage never came). */
  estimated_calls: number;
}

/** What rows of a breakdown add up: dollars, calls and tokens. */
export type SpendAmounts = Omit<SpendByRow, "key" | "channel" | "session_id">;

/** Nothing spent. */
export const NO_AMOUNTS: Readonly<SpendAmounts> = {
  usd: 0,
  calls: 0,
  unpriced_calls: 0,
  estimated_calls: 0,
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
};

/** `a` and `b` added up (a total, or one group of several rows). */
export function addAmounts(a: SpendAmounts, b: SpendAmounts): SpendAmounts {
  return {
    usd: a.usd + b.usd,
    calls: a.calls + b.calls,
    unpriced_calls: a.unpriced_calls + b.unpriced_calls,
    estimated_calls: a.estimated_calls + b.estimated_calls,
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_read_tokens: a.cache_read_tokens + b.cache_read_tokens,
    cache_write_tokens: a.cache_write_tokens + b.cache_write_tokens,
  };
}

/** A breakdown over one period (the JSON of `agent spend --by`). */
export interface SpendByReport {
  by: SpendBy;
  period: Period;
  /** The role asked for; null for every role. */
  role: string | null;
  /** Start of the period (ISO 8601 with offset). */
  since: string;
  /** End of the period, its reset (ISO 8601 with offset). */
  until: string;
  /** Largest first; days oldest first, every day of the period up to today. */
  rows: SpendByRow[];
  total: SpendAmounts;
}

/** Options for {@linkcode spendBy}. */
export interface SpendByOptions {
  by: SpendBy;
  /** Only this role's calls. @default every role */
  role?: string | undefined;
  /** The period. @default the role's budget period, else month */
  period?: Period | undefined;
  nowMs: number;
}

/** The period a breakdown covers: the one asked, else the role's budget period, else month. */
export function spendByPeriod(config: AgentConfig, options: SpendByOptions): Period {
  if (options.period !== undefined) return options.period;
  const role = options.role === undefined ? undefined : config.models.roles[options.role];
  return role?.budget?.period ?? "month";
}

/**
 * Spend over the current period grouped by `options.by`; `ledger` undefined (no ledger
 * file yet) reads as nothing spent.
 */
export function spendBy(
  config: AgentConfig,
  ledger: Ledger | undefined,
  options: SpendByOptions,
): SpendByReport {
  const period = spendByPeriod(config, options);
  const { sinceMs, resetMs } = periodBounds(period, options.nowMs);
  const span = { sinceMs, untilMs: resetMs, ...(options.role ? { role: options.role } : {}) };
  let rows: SpendByRow[];
  if (ledger === undefined) {
    rows = options.by === "day" ? dayRows(new Map(), sinceMs, options.nowMs) : [];
  } else if (options.by === "job") {
    rows = jobRows(ledger.breakdown("session", span));
  } else if (options.by === "day") {
    const found = new Map(ledger.days(span).map((d) => [d.day, d]));
    rows = dayRows(found, sinceMs, options.nowMs);
  } else {
    const key = options.by === "contact" ? "peer" : options.by;
    rows = ledger.breakdown(key, span).map((r) => ({
      key: options.by === "channel"
        ? r.channel
        : options.by === "contact"
        ? r.peer ?? ""
        : options.by === "purpose"
        ? r.purpose ?? "turn"
        : `${r.channel} ${r.session_id ?? "-"}`,
      ...(options.by === "purpose" ? {} : { channel: r.channel }),
      ...(options.by === "session" ? { session_id: r.session_id } : {}),
      ...amounts(r),
    }));
  }
  const total = rows.reduce<SpendAmounts>((sum, r) => addAmounts(sum, r), NO_AMOUNTS);
  return {
    by: options.by,
    period,
    role: options.role ?? null,
    since: isoWithOffset(sinceMs),
    until: isoWithOffset(resetMs),
    rows,
    total: { ...total, usd: dollars(total.usd) },
  };
}

function amounts(r: SpentTotals & TokenTotals): Omit<SpendByRow, "key"> {
  return {
    usd: dollars(r.usd),
    calls: r.calls,
    unpriced_calls: r.unpriced_calls,
    estimated_calls: r.estimated_calls,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    cache_read_tokens: r.cache_read_tokens,
    cache_write_tokens: r.cache_write_tokens,
  };
}

/** A job run's session id: `job-<name>-YYYYMMDD-HHMMSS-xxxx`. */
const JOB_SESSION = /^job-([a-z][a-z0-9-]{1,30})-\d{8}-\d{6}-[0-9a-f]{4}$/;

/** The job channel's sessions summed by the job that ran them, largest first. */
function jobRows(
  rows: readonly (SpentTotals & TokenTotals & {
    channel: string;
    session_id: string | null;
  })[],
): SpendByRow[] {
  const byJob = new Map<string, SpendByRow>();
  for (const r of rows) {
    if (r.channel !== "job") continue;
    const name = JOB_SESSION.exec(r.session_id ?? "")?.[1] ?? "-";
    byJob.set(name, { key: name, ...addAmounts(byJob.get(name) ?? NO_AMOUNTS, r) });
  }
  return [...byJob.values()].map((r) => ({ ...r, usd: dollars(r.usd) }))
    .sort((a, b) => b.usd - a.usd);
}

/** Every day from `sinceMs` through the day of `nowMs`, zero where nothing was spent. */
function dayRows(
  found: Map<number, SpentTotals & TokenTotals>,
  sinceMs: number,
  nowMs: number,
): SpendByRow[] {
  const rows: SpendByRow[] = [];
  for (let day = sinceMs; day <= nowMs; day = nextDayStart(day)) {
    const d = found.get(day) ?? NO_AMOUNTS;
    rows.push({ key: isoDay(day), ...amounts(d) });
  }
  return rows;
}

function isoDay(ms: number): string {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(TIME_ZONE).toPlainDate()
    .toString();
}

function dollars(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

/** The lines `agent spend --by` prints: a title, one aligned line per row, a total. */
export function spendByLines(report: SpendByReport, lang: Lang): string[] {
  const lines = [t(lang, "by_title", {
    by: t(lang, `by_${report.by}`),
    span: t(lang, `span_${periodWord(report.period)}`),
    since: formatTime(Date.parse(report.since)),
    until: formatTime(Date.parse(report.until)),
    role: report.role === null ? "" : t(lang, "by_role", { role: report.role }),
  })];
  if (report.rows.length === 0) {
    lines.push(t(lang, "by_empty"));
    return lines;
  }
  const label = (row: SpendByRow) =>
    report.by === "day"
      ? row.key.split("-").reverse().join(".")
      : report.by === "session" && row.session_id === null
      ? `${row.channel} ${t(lang, "by_no_session")}`
      : row.key;
  const cells: [string, SpendByRow][] = [
    ...report.rows.map((r): [string, SpendByRow] => [label(r), r]),
    [t(lang, "by_total"), { ...report.total, key: "" }],
  ];
  const width = Math.max(...cells.map(([name]) => name.length));
  // One column, one number of decimals: enough for its smallest amount to show, and for
  // its rows to add up to its total.
  const column = formatUsdColumn(report.rows.map((r) => r.usd), report.total.usd, lang);
  const money = [...column.parts, column.total].map((v) => `$${v}`);
  const moneyWidth = Math.max(...money.map((m) => m.length));
  cells.forEach(([name, r], i) => {
    const calls = r.calls === 1
      ? t(lang, "by_calls_one")
      : t(lang, "by_calls", { n: formatCount(r.calls, lang) });
    const tokens = t(lang, "by_tokens", {
      input: formatCount(r.input_tokens + r.cache_read_tokens + r.cache_write_tokens, lang),
      output: formatCount(r.output_tokens, lang),
    });
    const estimated = r.estimated_calls > 0
      ? t(lang, "by_estimated", { n: formatCount(r.estimated_calls, lang) })
      : "";
    lines.push(
      `  ${name.padEnd(width)}  ${money[i]!.padStart(moneyWidth)}  ${calls}, ${tokens}${estimated}`,
    );
  });
  return lines;
}
