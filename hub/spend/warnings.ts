/**
 * Early budget warnings: when a budgeted role passes `warn_at` (default 0.8) of its
 * cap, each surface tells the owner once per role and period: the hub logs it and
 * emits an agent event for its channels, chat prints one line before the answer. The
 * ledger remembers what was told (`budget_warnings`), so a restart or a second
 * process does not tell it again.
 *
 * @module
 */
import type { AgentConfig, Period } from "../config/types.ts";
import { DEFAULT_WARN_AT } from "../config/defaults.ts";
import { formatTime, type Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import { budgetStatus } from "./budget.ts";
import type { Ledger } from "../ledger/ledger.ts";
import { periodWord } from "../ledger/periods.ts";
import { formatUsdAll, type SpendSaid } from "./sentences.ts";

/** Who tells the owner: each surface tells a warning once. */
export type WarningSurface = "hub" | "chat" | "tui";

/** A role that passed its warning threshold. */
export interface BudgetWarning {
  role: string;
  spentUsd: number;
  capUsd: number;
  /** The threshold passed (`warn_at`). */
  warnAt: number;
  period: Period;
  /** Start of the period, epoch ms. */
  sinceMs: number;
  /** The reset, epoch ms. */
  resetMs: number;
}

/** Options for {@linkcode claimBudgetWarnings}. */
export interface ClaimWarningsOptions {
  /** Who tells the owner. */
  surface: WarningSurface;
  /** Only these roles. @default every budgeted role */
  roles?: readonly string[];
}

/**
 * The warnings `surface` has to give now: budgeted roles at or past `warn_at` of their
 * cap this period that this surface has not told yet. Each returned warning is marked
 * as told in the ledger, atomically, so it is returned once.
 */
export function claimBudgetWarnings(
  ledger: Ledger,
  config: AgentConfig,
  nowMs: number,
  options: ClaimWarningsOptions,
): BudgetWarning[] {
  const out: BudgetWarning[] = [];
  for (const [name, role] of Object.entries(config.models.roles)) {
    if (options.roles !== undefined && !options.roles.includes(name)) continue;
    const budget = role.budget;
    const warnAt = budget?.warn_at ?? DEFAULT_WARN_AT;
    if (budget === undefined || !(warnAt > 0)) continue;
    const status = budgetStatus(ledger, name, role, nowMs);
    if (status === undefined || status.spentUsd < warnAt * status.capUsd) continue;
    if (!ledger.claimWarning(`${options.surface}:${name}`, status.sinceMs, nowMs)) continue;
    out.push({
      role: name,
      spentUsd: status.spentUsd,
      capUsd: status.capUsd,
      warnAt,
      period: budget.period,
      sinceMs: status.sinceMs,
      resetMs: status.resetMs,
    });
  }
  return out;
}

/**
 * `Budget warning: brain has spent $12.10 of $15.00 this month (81%); it resets ...`,
 * or past the cap `Budget spent: brain has spent $20.00 of $15.00 this month (133%);
 * it is not called until ...`.
 */
export function budgetWarningSentence(lang: Lang, warning: BudgetWarning): string {
  const [spent, cap] = formatUsdAll([warning.spentUsd, warning.capUsd], lang);
  return t(lang, warning.spentUsd >= warning.capUsd ? "warn_spent_line" : "warn_line", {
    role: warning.role,
    spent,
    cap,
    span: t(lang, `span_${periodWord(warning.period)}`),
    percent: Math.floor((warning.spentUsd / warning.capUsd) * 100),
    time: formatTime(warning.resetMs),
  });
}

/**
 * {@linkcode budgetWarningSentence} as a code and its parameters (the owner event's
 * `said`, `hub/events/said.ts`), so each reader says it in its own language.
 */
export function budgetWarningSaid(warning: BudgetWarning): SpendSaid {
  return {
    code: `spend.${warning.spentUsd >= warning.capUsd ? "warn_spent_line" : "warn_line"}`,
    vars: {
      role: warning.role,
      percent: Math.floor((warning.spentUsd / warning.capUsd) * 100),
      time: formatTime(warning.resetMs),
    },
    usd: { spent: warning.spentUsd, cap: warning.capUsd },
    words: { span: `span_${periodWord(warning.period)}` },
  };
}

/**
 * The log line (English): `budget: brain passed 80% of its $15.00 month cap ($12.10
 * spent)`, or `budget: brain spent its $15.00 month cap ($20.00 spent)` past it.
 */
export function budgetWarningLogLine(warning: BudgetWarning): string {
  const [spent, cap] = formatUsdAll([warning.spentUsd, warning.capUsd], "en");
  if (warning.spentUsd >= warning.capUsd) {
    return `budget: ${warning.role} spent its $${cap} ${warning.period} cap ($${spent} spent)`;
  }
  return `budget: ${warning.role} passed ${
    Math.round(warning.warnAt * 100)
  }% of its $${cap} ${warning.period} cap ($${spent} spent)`;
}
