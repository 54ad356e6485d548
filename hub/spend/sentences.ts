/**
 * The sentences a spent budget becomes: the turn-ending sentence, the notice under a
 * stand-in's reply, and the hub log's warning. The call chain uses these so every
 * channel shows the same text.
 *
 * @module
 */
import { formatTime, type Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import type { BudgetDecision, BudgetStatus } from "./budget.ts";
import type { LedgerError } from "../ledger/ledger.ts";
import { isoWithOffset } from "../ledger/periods.ts";
import { formatUsdAll } from "./usd_format.ts";

export { formatUsd, formatUsdAll } from "./usd_format.ts";

/**
 * `The <role> budget is spent ($<spent> of $<cap>) and resets at <time>. To raise the
 * cap, change it in agent.toml.`
 */
export function budgetSpentSentence(lang: Lang, status: BudgetStatus): string {
  const [spent, cap] = formatUsdAll([status.spentUsd, status.capUsd], lang);
  return t(lang, "budget_spent", {
    role: status.role,
    spent,
    cap,
    time: formatTime(status.resetMs),
  });
}

/**
 * A spend sentence as a code and its parameters: the shape of an owner event's `said`
 * (`EventSaid`), written here without importing the events, which read dollars from
 * this folder.
 */
export interface SpendSaid {
  code: string;
  vars: Record<string, string | number>;
  usd: Record<string, number>;
  words?: Record<string, string>;
}

/** {@linkcode budgetSpentSentence} as a code and its parameters (an owner event's `said`). */
export function budgetSpentSaid(status: BudgetStatus): SpendSaid {
  return {
    code: "spend.budget_spent",
    vars: { role: status.role, time: formatTime(status.resetMs) },
    usd: { spent: status.spentUsd, cap: status.capUsd },
  };
}

/**
 * `The <role> budget is spent until <time>, and <stand-in>, which stands in for it, is
 * spent too until <time>.`
 */
export function standInSpentSentence(
  lang: Lang,
  statuses: { spent: BudgetStatus; standIn: BudgetStatus },
): string {
  return t(lang, "budget_spent_stand_in", {
    role: statuses.spent.role,
    time: formatTime(statuses.spent.resetMs),
    stand_in: statuses.standIn.role,
    stand_in_time: formatTime(statuses.standIn.resetMs),
  });
}

/** The sentence a turn ends with when {@linkcode checkBudget} says no call is made. */
export function budgetBlockedSentence(
  lang: Lang,
  decision: Extract<BudgetDecision, { ok: false }>,
): string {
  return decision.standIn === undefined
    ? budgetSpentSentence(lang, decision.spent)
    : standInSpentSentence(lang, { spent: decision.spent, standIn: decision.standIn });
}

/**
 * The notice a stand-in's reply ends with: `(<role> budget spent until <time>;
 * <stand-in> answered.)`
 */
export function degradeNotice(lang: Lang, status: BudgetStatus, standIn: string): string {
  return t(lang, "degrade_notice", {
    role: status.role,
    time: formatTime(status.resetMs),
    stand_in: standIn,
  });
}

/**
 * The hub log's warning for a degraded call (always English, like every log line):
 * `role <role>: budget spent ($<spent> of $<cap>, resets <ISO 8601 time>); <stand-in>
 * answers instead`.
 */
export function degradeLogLine(status: BudgetStatus, standIn: string): string {
  const [spent, cap] = formatUsdAll([status.spentUsd, status.capUsd], "en");
  return `role ${status.role}: budget spent ($${spent} of $${cap}, resets ${
    isoWithOffset(status.resetMs)
  }); ${standIn} answers instead`;
}

/** A {@linkcode LedgerError} as one sentence in the UI language. */
export function ledgerErrorSentence(lang: Lang, error: LedgerError): string {
  return t(lang, `ledger_${error.action}`, { file: error.file, detail: error.detail });
}

/**
 * `The spend ledger <file> cannot be written (permission denied): budgets are checked,
 * but these calls are not counted.`
 */
export function ledgerReadOnlySentence(lang: Lang, file: string): string {
  return t(lang, "ledger_read_only", { file });
}
