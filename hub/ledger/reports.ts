/**
 * The ledger's report queries (spend grouped by channel, session or peer; spend per
 * day), apart from the ledger's writes so each file keeps one job.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { dayStart } from "./periods.ts";
import { TOKEN_COLUMNS } from "./schema.ts";
import type {
  BreakdownKey,
  BreakdownOptions,
  BreakdownRow,
  CallPurpose,
  CallRecord,
  Channel,
  DayRow,
  SpentTotals,
  TokenTotals,
} from "./types.ts";

/** A row as `node:sqlite` returns it. */
export type Row = Record<string, unknown>;

/** The number under `key`, 0 when missing. */
export function num(row: Row | undefined, key: string): number {
  const value = row?.[key];
  return typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : 0;
}

/** The totals of a row with `usd`, `calls`, `unpriced` and `estimated`. */
export function totalsOf(row: Row | undefined): SpentTotals {
  return {
    usd: num(row, "usd"),
    calls: num(row, "calls"),
    unpriced_calls: num(row, "unpriced"),
    estimated_calls: num(row, "estimated"),
  };
}

function tokensOf(row: Row): TokenTotals {
  return {
    input_tokens: num(row, "input_tokens"),
    output_tokens: num(row, "output_tokens"),
    cache_read_tokens: num(row, "cache_read_tokens"),
    cache_write_tokens: num(row, "cache_write_tokens"),
  };
}

const TOKEN_SUMS = TOKEN_COLUMNS.map((c) => `TOTAL(${c}) AS ${c}`).join(", ");

/** See `Ledger.breakdown`; `v3` says whether the ledger has the `estimated` columns. */
export function breakdownRows(
  db: DatabaseSync,
  v3: boolean,
  by: BreakdownKey,
  options: BreakdownOptions,
): BreakdownRow[] {
  const groups = by === "channel"
    ? "channel"
    : by === "session"
    ? "channel, session_id"
    : by === "purpose"
    ? (v3 ? "purpose" : "'turn'")
    : "channel, peer";
  const where = ["ts >= ?", "ts < ?"];
  const params: (string | number)[] = [
    options.sinceMs,
    options.untilMs ?? Number.MAX_SAFE_INTEGER,
  ];
  if (options.role !== undefined) {
    where.push("role = ?");
    params.push(options.role);
  }
  if (by === "peer") where.push("peer IS NOT NULL");
  const rows = db.prepare(
    `SELECT ${
      by === "purpose" ? `${groups} AS purpose` : groups
    }, TOTAL(usd) AS usd, COUNT(*) AS calls, TOTAL(usd IS NULL) AS unpriced,
       ${v3 ? "TOTAL(estimated)" : "0"} AS estimated, ${TOKEN_SUMS}
     FROM calls WHERE ${where.join(" AND ")} GROUP BY ${groups} ORDER BY usd DESC, calls DESC`,
  ).all(...params) as Row[];
  return rows.map((row) => ({
    channel: row.channel as Channel,
    session_id: by === "session" ? (row.session_id as string | null) : null,
    peer: by === "peer" ? (row.peer as string | null) : null,
    purpose: by === "purpose" ? (row.purpose as CallPurpose) : null,
    ...totalsOf(row),
    ...tokensOf(row),
  }));
}

/** See `Ledger.days`. */
export function dayRows(db: DatabaseSync, v3: boolean, options: BreakdownOptions): DayRow[] {
  const where = ["day >= ?", "day < ?"];
  const params: (string | number)[] = [
    dayStart(options.sinceMs),
    options.untilMs ?? Number.MAX_SAFE_INTEGER,
  ];
  if (options.role !== undefined) {
    where.push("role = ?");
    params.push(options.role);
  }
  const rows = db.prepare(
    `SELECT day, TOTAL(usd) AS usd, TOTAL(calls) AS calls, TOTAL(unpriced_calls) AS unpriced,
       ${v3 ? "TOTAL(estimated_calls)" : "0"} AS estimated, ${TOKEN_SUMS}
     FROM spend_day WHERE ${where.join(" AND ")} GROUP BY day ORDER BY day`,
  ).all(...params) as Row[];
  return rows.map((row) => ({ day: num(row, "day"), ...totalsOf(row), ...tokensOf(row) }));
}

/** The calls from `sinceMs` on, oldest first, as records (the cloud ledger resends them). */
export function callRows(db: DatabaseSync, v3: boolean, sinceMs: number): CallRecord[] {
  const rows = db.prepare(
    `SELECT * FROM calls WHERE ts >= ? ORDER BY ts, id`,
  ).all(sinceMs) as Row[];
  return rows.map((r) => ({
    ts: num(r, "ts"),
    role: String(r.role),
    provider: r.provider as CallRecord["provider"],
    model_id: String(r.model_id),
    ...tokensOf(r),
    usd: r.usd === null ? null : num(r, "usd"),
    channel: r.channel as Channel,
    session_id: (r.session_id ?? null) as string | null,
    peer: (r.peer ?? null) as string | null,
    estimated: v3 && num(r, "estimated") === 1,
    call_id: v3 ? (r.call_id ?? null) as string | null : null,
    ...(v3 ? { purpose: (r.purpose ?? "turn") as CallPurpose } : {}),
    ...(typeof r.tool_tokens === "number" && r.tool_tokens > 0
      ? { tool_tokens: r.tool_tokens }
      : {}),
    ...(typeof r.recall_tokens === "number" && r.recall_tokens > 0
      ? { recall_tokens: r.recall_tokens }
      : {}),
  }));
}
