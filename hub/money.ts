/**
 * Money: prices, the spend ledger, budgets and spend reporting. The light door
 * `@agent/hub/money` over `ledger/` (the ledger, pricing, periods) and `spend/`
 * (budgets, warnings, reports); inside the hub, code imports those folders.
 *
 * - {@linkcode callCost} prices one call from the AI SDK's usage.
 * - {@linkcode Ledger} is the shared SQLite ledger, one row per call.
 * - {@linkcode budgetStatus} / {@linkcode checkBudget} run before every call of a
 *   budgeted role; the sentences in `spend/sentences.ts` are what a spent budget becomes.
 * - {@linkcode spendReport}, {@linkcode spendLines} and {@linkcode budgetLine} feed
 *   `agent spend`, the hub's `/spend` and `/status`, and the `## Now` block.
 *
 * The door names every export: what `agent spend`, the TUI, the tests and the other
 * members use, and the types they name.
 *
 * @module
 */

// The ledger: one row per model call, in SQLite, shared by every process of a home,
// and the rows and totals it reports.
export {
  type BreakdownKey,
  type BreakdownOptions,
  type BreakdownRow,
  type CallProvider,
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
  type ToolProviderId,
} from "./ledger/ledger.ts";
export { ledgerErrorSentence, ledgerReadOnlySentence } from "./spend/sentences.ts";

// The cloud ledger: rows appended to the spine, read back when a container starts.
export { CloudLedger, type CloudLedgerOptions, cloudSince } from "./ledger/cloud.ts";

// Pricing a call: tokens billed and dollars, from the AI SDK's usage (the call chain
// writes the ledger row with them).
export {
  type BilledTokens,
  billedTokens,
  callCost,
  type CallCostOptions,
  type Usage,
} from "./ledger/prices.ts";

// Budgets: checked before every call of a budgeted role; the sentences a spent budget,
// a degraded role or a warning becomes; the warnings each surface tells once.
export {
  type BudgetDecision,
  type BudgetStatus,
  budgetStatus,
  checkBudget,
  isMetered,
} from "./spend/budget.ts";
export { dayStart, type PeriodBounds, periodBounds } from "./ledger/periods.ts";
export {
  budgetBlockedSentence,
  budgetSpentSentence,
  degradeLogLine,
  degradeNotice,
} from "./spend/sentences.ts";

// Numbers as a person reads and types them, in the reader's language (Turkish: decimal
// comma, grouping dot, dollars included): every channel's amounts and counts.
export {
  formatCount,
  formatUsd,
  formatUsdAll,
  formatUsdColumn,
  type NumberLang,
  parseUsd,
} from "./spend/usd_format.ts";
export {
  type BudgetWarning,
  budgetWarningLogLine,
  budgetWarningSentence,
  claimBudgetWarnings,
  type ClaimWarningsOptions,
  type WarningSurface,
} from "./spend/warnings.ts";

// Spend reports: `agent spend` (totals, `--by`, the forecast), the hub's `/spend` and
// `/status`, the TUI's spend line.
export { budgetLine, spendLines, type SpendObject, spendReport } from "./spend/report.ts";
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
} from "./spend/by.ts";
export { type Forecast, forecastLine, forecastReport } from "./spend/forecast.ts";
export { ensureSpendGroups, type SpendGroupsOptions } from "./spend/rollup.ts";
