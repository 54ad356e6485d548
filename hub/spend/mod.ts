/**
 * Spend: budgets checked before every call of a budgeted role ({@linkcode checkBudget}),
 * the sentences a spent budget, a degraded role or a warning becomes, the warnings each
 * surface tells once, and the reports read from the ledger (`agent spend` and `--by`,
 * the forecast, the day rollup the dashboard charts, `/spend`, `/status`, the `## Now`
 * block).
 *
 * @module
 */

// Budgets: checked before every call of a budgeted role; the sentences a spent budget,
// a degraded role or a warning becomes; the warnings each surface tells once.
export {
  type BudgetDecision,
  type BudgetStatus,
  budgetStatus,
  checkBudget,
  isMetered,
} from "./budget.ts";
export {
  budgetBlockedSentence,
  budgetSpentSaid,
  budgetSpentSentence,
  degradeLogLine,
  degradeNotice,
  formatUsd,
  formatUsdAll,
  ledgerErrorSentence,
  ledgerReadOnlySentence,
  type SpendSaid,
} from "./sentences.ts";
export {
  type BudgetWarning,
  budgetWarningLogLine,
  budgetWarningSaid,
  budgetWarningSentence,
  claimBudgetWarnings,
  type ClaimWarningsOptions,
  type WarningSurface,
} from "./warnings.ts";

// Spend reports: `agent spend` (totals, `--by`, the forecast), the hub's `/spend` and
// `/status`, the TUI's spend line.
export { budgetLine, spendLines, type SpendObject, spendReport } from "./report.ts";
export {
  addAmounts,
  isSpendBy,
  NO_AMOUNTS,
  SPEND_BY,
  type SpendAmounts,
  type SpendBy,
  spendBy,
  spendByLines,
  type SpendByOptions,
  type SpendByReport,
  type SpendByRow,
} from "./by.ts";
export { type Forecast, forecastLine, forecastReport } from "./forecast.ts";
export { ensureSpendGroups, type SpendGroupsOptions } from "./rollup.ts";
