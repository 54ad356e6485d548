/**
 * Money: prices, the spend ledger, budgets and spend reporting. The light door
 * `@agent/hub/money`, and the money package the rest of the hub imports.
 *
 * - {@linkcode callCost} prices one call from the AI SDK's usage.
 * - {@linkcode Ledger} is the shared SQLite ledger, one row per call.
 * - {@linkcode budgetStatus} / {@linkcode checkBudget} run before every call of a
 *   budgeted role; the sentences in `sentences.ts` are what a spent budget becomes.
 * - {@linkcode spendReport}, {@linkcode spendLines} and {@linkcode budgetLine} feed
 *   `agent spend`, the hub's `/spend` and `/status`, and the `## Now` block.
 *
 * The door names every export: what `agent spend`, the TUI, the tests and the rest of
 * the hub (the call chain, the desk, the control API) use, and the types they name.
 *
 * @module
 */

// The ledger: one row per model call, in SQLite, shared by every process of a home,
// and the rows and totals it reports.
export {
  type BreakdownKey,
  type BreakdownOptions,
  type BreakdownRow,
  type CallPurpose,
  type CallRecord,
  type Channel,
  type DayCap,
  type DayRow,
  type HardCap,
  type HoldAnswer,
  Ledger,
  type LedgerAction,
  LedgerError,
  type PendingCall,
  type Reservation,
  type RunHold,
  type SessionCeiling,
  type SpentTotals,
  type TokenTotals,
} from "./ledger.ts";
export { ledgerErrorSentence, ledgerReadOnlySentence } from "./sentences.ts";

// The cloud ledger: rows appended to the spine, read back when a container starts.
export { CloudLedger, type CloudLedgerOptions, cloudSince } from "./cloud_ledger.ts";

// Pricing a call: tokens billed and dollars, from the AI SDK's usage (the call chain
// writes the ledger row with them).
export {
  type BilledTokens,
  billedTokens,
  callCost,
  type CallCostOptions,
  type Usage,
} from "./prices.ts";

// Budgets: checked before every call of a budgeted role; the sentences a spent budget,
// a degraded role or a warning becomes; the warnings each surface tells once.
export {
  type BudgetDecision,
  type BudgetStatus,
  budgetStatus,
  checkBudget,
  isMetered,
} from "./budget.ts";
export { dayStart, type PeriodBounds, periodBounds } from "./periods.ts";
export {
  budgetBlockedSentence,
  budgetSpentSentence,
  degradeLogLine,
  degradeNotice,
  formatUsd,
} from "./sentences.ts";
export {
  type BudgetWarning,
  budgetWarningLogLine,
  budgetWarningSentence,
  claimBudgetWarnings,
  type ClaimWarningsOptions,
  type WarningSurface,
} from "./warnings.ts";

// Spend reports: `agent spend` (totals, `--by`, the forecast), the hub's `/spend` and
// `/status`, the TUI's spend line.
export { budgetLine, spendLines, type SpendObject, spendReport } from "./spend.ts";
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
} from "./spend_by.ts";
export { type Forecast, forecastLine, forecastReport } from "./forecast.ts";
export { ensureSpendGroups, type SpendGroupsOptions } from "./spend_rollup.ts";
