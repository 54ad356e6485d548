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

/** The most decimals an amount is shown with (a millionth of a cent is below any price). */
const MAX_DECIMALS = 8;

/**
 * Dollars without the `$`: two decimals, and below ten cents the digits that keep a small
 * amount from reading as nothing or as a rounder one (`0.014`, not `0.01`; `0.0042`;
 * `0.000027`, not `0.0000`).
 *
 * @example
 * ```ts
 * import { formatUsd } from "./sentences.ts";
 * if (formatUsd(15) !== "15.00" || formatUsd(0.0042) !== "0.0042" || formatUsd(0) !== "0.00") {
 *   throw new Error();
 * }
 * if (formatUsd(0.014) !== "0.014" || formatUsd(0.000027) !== "0.000027") throw new Error();
 * ```
 */
export function formatUsd(usd: number): string {
  const value = amount(usd);
  return value.toFixed(decimalsFor(value));
}

/**
 * Amounts a sentence compares (`$spent of $cap`, a run that would pass a ceiling), each
 * as {@linkcode formatUsd} shows it, with more digits where two amounts that differ
 * would read the same, so a sentence never reads false (`$0.0149 of $0.0150`, not
 * `$0.015 of $0.015`).
 *
 * @example
 * ```ts
 * import { formatUsdAll } from "./sentences.ts";
 * if (formatUsdAll([0.014, 0.02]).join() !== "0.014,0.02") throw new Error();
 * if (formatUsdAll([12.1, 15]).join() !== "12.10,15.00") throw new Error();
 * if (formatUsdAll([0.0149, 0.015]).join() !== "0.0149,0.0150") throw new Error();
 * if (formatUsdAll([14.999, 15]).join() !== "14.999,15.000") throw new Error();
 * ```
 */
export function formatUsdAll<const T extends readonly number[]>(
  usds: T,
): { -readonly [K in keyof T]: string } {
  const values = usds.map(amount);
  const decimals = values.map(decimalsFor);
  // Two amounts that differ but would read the same both get a digit more, until none do.
  for (let round = 0; round < MAX_DECIMALS; round++) {
    const shown = values.map((v, i) => v.toFixed(decimals[i]!));
    let clash = false;
    values.forEach((a, i) =>
      values.forEach((b, j) => {
        if (i >= j || a === b || shown[i] !== shown[j]) return;
        clash = true;
        const more = Math.min(MAX_DECIMALS, Math.max(decimals[i]!, decimals[j]!) + 1);
        decimals[i] = decimals[j] = more;
      })
    );
    if (!clash) break;
  }
  return values.map((v, i) => v.toFixed(decimals[i]!)) as { -readonly [K in keyof T]: string };
}

function amount(usd: number): number {
  return Number.isFinite(usd) && usd > 0 ? usd : 0;
}

/**
 * Two decimals from ten cents up, and for whole cents; a third for the tenths of a cent
 * below ten cents (`0.014`); below a cent at least four, and two significant digits.
 */
function decimalsFor(value: number): number {
  if (value === 0 || value >= 0.1) return 2;
  if (value >= 0.01) return Number(value.toFixed(3)) === Number(value.toFixed(2)) ? 2 : 3;
  return Math.min(MAX_DECIMALS, Math.max(4, 1 - Math.floor(Math.log10(value))));
}

/**
 * `The <role> budget is spent ($<spent> of $<cap>) and resets at <time>. To raise the
 * cap, change it in agent.toml.`
 */
export function budgetSpentSentence(lang: Lang, status: BudgetStatus): string {
  const [spent, cap] = formatUsdAll([status.spentUsd, status.capUsd]);
  return t(lang, "budget_spent", {
    role: status.role,
    spent,
    cap,
    time: formatTime(status.resetMs),
  });
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
  const [spent, cap] = formatUsdAll([status.spentUsd, status.capUsd]);
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
