/**
 * Spend reporting: the spend object per role (`agent spend --json`, the hub's
 * `GET /spend` and `/status`), the spend lines, and the `Budget: ...` line that
 * `/status` and the system prompt's `## Now` block show.
 *
 * @module
 */
import type { AgentConfig, Period } from "../config/types.ts";
import { formatTime, type Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import { isMetered } from "./budget.ts";
import type { Ledger } from "../ledger/ledger.ts";
import { isoWithOffset, periodBounds, periodWord } from "../ledger/periods.ts";
import { formatUsd, formatUsdAll } from "./sentences.ts";
import { formatCount } from "./usd_format.ts";

/** One role's spend in its current period (the spec's spend object). */
export interface SpendObject {
  /** Provider of the role. */
  provider: string;
  /** Model id of the role. */
  model_id: string;
  /** Dollars spent in the current period. */
  spent_usd: number;
  /** The budget's usd; null without a budget. */
  cap_usd: number | null;
  /** The budget's period; `month` for a role without a budget. */
  period: Period;
  /** Start of the current period, ISO 8601 with offset. */
  since: string;
  /** Next reset, ISO 8601 with offset. */
  reset_at: string;
  /** Budget spent. */
  exhausted: boolean;
  /** The stand-in role, when configured. */
  degrade_to?: string;
  /** Calls on an unpriced model in the current period. */
  unpriced_calls: number;
  /**
   * Calls in the current period whose tokens were estimated: they ended (cancelled,
   * timed out, connection lost, process stopped) before the provider reported usage.
   */
  estimated_calls: number;
  /** Whether the role's calls are counted. */
  metered: boolean;
}

/** Rounds away float noise (0.1 + 0.2) while keeping sub-cent spend visible. */
function dollars(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

/**
 * The spend object of every role in `config` at `nowMs`; `ledger` undefined (no
 * ledger file yet) reads as nothing spent.
 *
 * @example
 * ```ts
 * import { spendReport } from "./report.ts";
 * const config = { models: { prices: {}, roles: {
 *   fast: { provider: "fake", model_id: "m", params: {}, budget: { usd: 1, period: "day" } },
 * } } } as unknown as import("../config/types.ts").AgentConfig;
 * const report = spendReport(config, undefined, Date.UTC(2026, 0, 1, 12));
 * if (report.fast?.reset_at !== "2026-01-02T00:00:00+03:00") throw new Error();
 * ```
 */
export function spendReport(
  config: AgentConfig,
  ledger: Ledger | undefined,
  nowMs: number,
): Record<string, SpendObject> {
  const report: Record<string, SpendObject> = {};
  for (const [name, role] of Object.entries(config.models.roles)) {
    const period = role.budget?.period ?? "month";
    const { sinceMs, resetMs } = periodBounds(period, nowMs);
    const totals = ledger?.spent(name, sinceMs) ?? {
      usd: 0,
      calls: 0,
      unpriced_calls: 0,
      estimated_calls: 0,
    };
    const spent = dollars(totals.usd);
    const cap = role.budget?.usd ?? null;
    const entry: SpendObject = {
      provider: role.provider,
      model_id: role.model_id,
      spent_usd: spent,
      cap_usd: cap,
      period,
      since: isoWithOffset(sinceMs),
      reset_at: isoWithOffset(resetMs),
      exhausted: cap !== null && totals.usd >= cap,
      unpriced_calls: totals.unpriced_calls,
      estimated_calls: totals.estimated_calls,
      metered: isMetered(role),
    };
    // Keep the table's field order in JSON: degrade_to sits after exhausted.
    if (role.budget?.degrade_to !== undefined) {
      const { unpriced_calls, estimated_calls, metered, ...head } = entry;
      report[name] = {
        ...head,
        degrade_to: role.budget.degrade_to,
        unpriced_calls,
        estimated_calls,
        metered,
      };
    } else {
      report[name] = entry;
    }
  }
  return report;
}

function span(lang: Lang, period: Period): string {
  const word = periodWord(period);
  return t(lang, `span_${word}`);
}

/**
 * The role that really answers for `role` while its budget is spent: its `degrade_to`,
 * followed while those are spent too; `undefined` when none can.
 */
export function answeringStandIn(
  report: Record<string, SpendObject>,
  role: string,
): string | undefined {
  const seen = new Set([role]);
  let next = report[role]?.degrade_to;
  while (next !== undefined && !seen.has(next)) {
    const entry = report[next];
    if (entry === undefined) return undefined;
    if (!entry.exhausted) return next;
    seen.add(next);
    next = entry.degrade_to;
  }
  return undefined;
}

/**
 * One role's spend line, as `agent spend` prints it; `standIn` is the role that answers
 * while this one is spent (see {@linkcode answeringStandIn}).
 */
export function spendLine(
  lang: Lang,
  role: string,
  entry: SpendObject,
  standIn: string | undefined,
): string {
  const [spent, cap] = formatUsdAll([entry.spent_usd, entry.cap_usd ?? entry.spent_usd], lang);
  const base = { role, provider: entry.provider, spent: formatUsd(entry.spent_usd, lang) };
  if (entry.cap_usd === null && !entry.metered) return t(lang, "line_unmetered", base);
  let line = entry.cap_usd === null ? t(lang, "line_no_budget", base) : t(lang, "line_budget", {
    ...base,
    spent,
    cap,
    span: span(lang, entry.period),
    time: formatTime(Date.parse(entry.reset_at)),
  });
  if (entry.exhausted) {
    line += t(lang, "suffix_spent");
    if (standIn !== undefined) line += t(lang, "suffix_degrade", { stand_in: standIn });
  }
  if (entry.unpriced_calls > 0) {
    line += entry.unpriced_calls === 1
      ? t(lang, "suffix_unpriced_one", { model: entry.model_id })
      : t(lang, "suffix_unpriced", {
        n: formatCount(entry.unpriced_calls, lang),
        model: entry.model_id,
      });
  }
  if (entry.estimated_calls > 0) {
    line += entry.estimated_calls === 1
      ? t(lang, "suffix_estimated_one")
      : t(lang, "suffix_estimated", { n: formatCount(entry.estimated_calls, lang) });
  }
  return line;
}

/** Every role's spend line, in the configuration's role order. */
export function spendLines(report: Record<string, SpendObject>, lang: Lang): string[] {
  return Object.entries(report).map(([role, entry]) =>
    spendLine(lang, role, entry, answeringStandIn(report, role))
  );
}

/**
 * The budgeted roles as `<role> $<spent> of $<cap> <span> (resets <time>)` items
 * joined by `; `, or undefined when no role has a budget.
 */
export function budgetItems(report: Record<string, SpendObject>, lang: Lang): string | undefined {
  const items: string[] = [];
  for (const [role, entry] of Object.entries(report)) {
    if (entry.cap_usd === null) continue;
    const [spent, cap] = formatUsdAll([entry.spent_usd, entry.cap_usd], lang);
    items.push(t(lang, "status_item", {
      role,
      spent,
      cap,
      span: span(lang, entry.period),
      time: formatTime(Date.parse(entry.reset_at)),
    }));
  }
  return items.length === 0 ? undefined : items.join("; ");
}

/**
 * `Budget: <role> $<spent> of $<cap> <span> (resets <time>); ...`, or
 * `Budget: unknown.` without any budget.
 *
 * @example
 * ```ts
 * import { budgetLine } from "./report.ts";
 * if (budgetLine({}, "en") !== "Budget: unknown.") throw new Error();
 * ```
 */
export function budgetLine(report: Record<string, SpendObject>, lang: Lang): string {
  const items = budgetItems(report, lang);
  return items === undefined ? t(lang, "status_unknown") : t(lang, "status_line", { items });
}
