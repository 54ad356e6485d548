/**
 * The dashboard's spend by day, stacked by role: one SQL query over the ledger's daily
 * totals (`spend_day`, a row per role and Istanbul day), so a chart over a month reads
 * at most a few hundred rows whatever the number of calls. It opens its own read-only
 * connection (WAL lets it read while the hub writes) and leaves the ledger's writer
 * alone. The other breakdowns (channel, contact, session) read the ledger's
 * `spend_groups` rollup (`spend_rollup.ts`), which {@linkcode SpendChartReader.prepare}
 * sets up.
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { TIME_ZONE } from "../i18n.ts";
import { nextDayStart } from "../ledger/periods.ts";
import { ensureSpendGroups, type GroupBy, type GroupRow, spendGroups } from "./rollup.ts";

const HOUR_MS = 3_600_000;

/** Spend per day and role over a span: the series a stacked bar chart draws. */
export interface SpendChart {
  /** `YYYY-MM-DD` Istanbul days, oldest first, every day of the span up to today. */
  days: string[];
  /** The roles with spend in the span, largest first. */
  roles: string[];
  /** Dollars per role, one number per day (same order as `days`). */
  usd: Record<string, number[]>;
  /** Calls per day, every role. */
  calls: number[];
}

/** Spend per hour and role over one day: the "today" view's series. */
export interface SpendHours {
  /** Each hour's start as `HH:MM` in Istanbul, every hour of the day. */
  hours: string[];
  /** How many of them have begun (up to the hour of now); the rest are zeros. */
  elapsed: number;
  /** The roles with spend in the day, largest first. */
  roles: string[];
  /** Dollars per role, one number per hour (same order as `hours`). */
  usd: Record<string, number[]>;
  /** Calls per hour, every role. */
  calls: number[];
}

/** What one model did for a session since a moment: the web chat's line under an answer. */
export interface TurnUsage {
  model_id: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  /** Null when every call was unpriced. */
  usd: number | null;
  /** Calls whose tokens (so dollars) were estimated: the provider's usage never came. */
  estimated_calls: number;
}

/** A read-only view of the ledger for charts; `close()` when done. */
export class SpendChartReader {
  #file: string;
  #db: DatabaseSync | undefined;
  #byDay: StatementSync | undefined;
  #turn: StatementSync | undefined;
  #byHour: StatementSync | undefined;
  #groupsReady = false;

  constructor(ledgerFile: string) {
    this.#file = ledgerFile;
  }

  /**
   * Spend per role and day from `sinceMs` (an Istanbul midnight) to `untilMs`, days
   * with nothing spent filled with zeros up to the day of `nowMs`. No ledger file
   * reads as nothing spent.
   */
  chart(sinceMs: number, untilMs: number, nowMs: number): SpendChart {
    const rows = this.#rows(sinceMs, untilMs);
    const days: number[] = [];
    for (let day = sinceMs; day < untilMs && day <= nowMs; day = nextDayStart(day)) days.push(day);
    const index = new Map(days.map((d, i) => [d, i]));
    const usd: Record<string, number[]> = {};
    const totals = new Map<string, number>();
    const calls = days.map(() => 0);
    for (const row of rows) {
      const i = index.get(row.day);
      if (i === undefined) continue;
      const series = usd[row.role] ??= days.map(() => 0);
      series[i] = Math.round(row.usd * 1e6) / 1e6;
      calls[i]! += row.calls;
      totals.set(row.role, (totals.get(row.role) ?? 0) + row.usd);
    }
    const roles = [...totals.keys()].sort((a, b) => totals.get(b)! - totals.get(a)!);
    return { days: days.map(isoDay), roles, usd, calls };
  }

  /**
   * Spend per role and hour of the day from `sinceMs` (an Istanbul midnight) to
   * `untilMs`, counted up to `nowMs`: from the calls themselves (their `ts` index), a
   * day's worth.
   */
  hourly(sinceMs: number, untilMs: number, nowMs: number): SpendHours {
    const starts: number[] = [];
    for (let at = sinceMs; at < untilMs; at += HOUR_MS) starts.push(at);
    const elapsed = starts.filter((at) => at <= nowMs).length;
    const usd: Record<string, number[]> = {};
    const totals = new Map<string, number>();
    const calls = starts.map(() => 0);
    const db = this.#open();
    this.#byHour ??= db?.prepare(
      `SELECT role, CAST((ts - ?) / ${HOUR_MS} AS INTEGER) AS hour, TOTAL(usd) AS usd,
         COUNT(*) AS calls
       FROM calls WHERE ts >= ? AND ts < ? GROUP BY role, hour`,
    );
    const rows = (this.#byHour?.all(sinceMs, sinceMs, Math.min(untilMs, nowMs + 1)) ?? []) as {
      role: string;
      hour: number;
      usd: number;
      calls: number;
    }[];
    for (const row of rows) {
      const i = Number(row.hour);
      if (i < 0 || i >= elapsed) continue;
      const series = usd[row.role] ??= starts.map(() => 0);
      series[i] = Math.round(row.usd * 1e6) / 1e6;
      calls[i]! += Number(row.calls);
      totals.set(row.role, (totals.get(row.role) ?? 0) + row.usd);
    }
    const roles = [...totals.keys()].sort((a, b) => totals.get(b)! - totals.get(a)!);
    return { hours: starts.map(hourOf), elapsed, roles, usd, calls };
  }

  /**
   * Sets up the ledger's `spend_groups` rollup (once; filled from the calls when new).
   * Throws when the ledger cannot be written.
   */
  prepare(): void {
    ensureSpendGroups(this.#file);
    this.#groupsReady = true;
  }

  /**
   * Spend from `sinceMs` to `untilMs` grouped by channel, contact or session, largest
   * first; without the rollup (not prepared) or a ledger, nothing.
   */
  groups(by: GroupBy, sinceMs: number, untilMs: number): GroupRow[] {
    const db = this.#open();
    if (db === undefined || !this.#groupsReady) return [];
    return spendGroups(db, by, sinceMs, untilMs);
  }

  /** The calls of `sessionId` from `sinceMs` up to `untilMs`, by model (the calls' `ts` index). */
  turnUsage(sessionId: string, sinceMs: number, untilMs = Number.MAX_SAFE_INTEGER): TurnUsage[] {
    const db = this.#open();
    if (db === undefined) return [];
    this.#turn ??= db.prepare(
      `SELECT model_id, COUNT(*) AS calls,
         TOTAL(input_tokens + cache_read_tokens + cache_write_tokens) AS input_tokens,
         TOTAL(output_tokens) AS output_tokens,
         CASE WHEN COUNT(usd) = 0 THEN NULL ELSE TOTAL(usd) END AS usd,
         ${this.#estimated(db)} AS estimated_calls
       FROM calls WHERE ts >= ? AND ts < ? AND session_id = ? GROUP BY model_id ORDER BY MIN(ts)`,
    );
    return (this.#turn.all(sinceMs, untilMs, sessionId) as unknown as TurnUsage[]).map((r) => ({
      model_id: r.model_id,
      calls: Number(r.calls),
      input_tokens: Number(r.input_tokens),
      output_tokens: Number(r.output_tokens),
      usd: r.usd === null ? null : Math.round(Number(r.usd) * 1e6) / 1e6,
      estimated_calls: Number(r.estimated_calls),
    }));
  }

  /** What counts a group's estimated calls: the ledger's column since its version 3. */
  #estimated(db: DatabaseSync): string {
    const columns = db.prepare("SELECT name FROM pragma_table_info('calls')").all() as {
      name: string;
    }[];
    return columns.some((c) => c.name === "estimated") ? "TOTAL(estimated)" : "0";
  }

  /** Closes the connection. */
  close(): void {
    this.#db?.close();
    this.#db = undefined;
    this.#byDay = undefined;
    this.#turn = undefined;
    this.#byHour = undefined;
  }

  /** The connection, opened on first use; undefined while there is no ledger file. */
  #open(): DatabaseSync | undefined {
    if (this.#db !== undefined) return this.#db;
    try {
      Deno.statSync(this.#file);
    } catch {
      return undefined;
    }
    this.#db = new DatabaseSync(this.#file, { readOnly: true });
    this.#db.exec("PRAGMA busy_timeout = 10000");
    return this.#db;
  }

  #rows(
    sinceMs: number,
    untilMs: number,
  ): { role: string; day: number; usd: number; calls: number }[] {
    const db = this.#open();
    if (db === undefined) return [];
    this.#byDay ??= db.prepare(
      `SELECT role, day, usd, calls FROM spend_day WHERE day >= ? AND day < ? ORDER BY day`,
    );
    return this.#byDay.all(sinceMs, untilMs) as {
      role: string;
      day: number;
      usd: number;
      calls: number;
    }[];
  }
}

function hourOf(ms: number): string {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(TIME_ZONE).toPlainTime()
    .toString({ smallestUnit: "minute" });
}

function isoDay(ms: number): string {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(TIME_ZONE).toPlainDate()
    .toString();
}
