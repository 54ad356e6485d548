/**
 * The spend ledger: one row per model call in SQLite, shared by every process of a home
 * ({@linkcode Ledger}: open, schema, statements, rows, reports, the pending reservations
 * of calls under way), the cloud ledger on the spine ({@linkcode CloudLedger}), the
 * pricing of one call ({@linkcode callCost}) and the periods rows are counted in.
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
  CHANNELS,
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
} from "./ledger.ts";

// A read-only connection to a WAL-mode SQLite file on a home that cannot be written
// (the job store reads its log this way too).
export { openReadOnly } from "./open.ts";

// The cloud ledger: rows appended to the spine, read back when a container starts.
export { CloudLedger, type CloudLedgerOptions, cloudSince } from "./cloud.ts";

// Pricing a call: tokens billed and dollars, from the AI SDK's usage (the call chain
// writes the ledger row with them).
export {
  type BilledTokens,
  billedTokens,
  callCost,
  type CallCostOptions,
  type Usage,
} from "./prices.ts";
export { dayStart, type PeriodBounds, periodBounds } from "./periods.ts";

// Token estimates where a count is missing (a call cut short, a hard cap's reservation,
// the size of tool definitions).
export { CHARS_PER_TOKEN, estimateTokens, jsonChars, RESERVE_CHARS_PER_TOKEN } from "./estimate.ts";
