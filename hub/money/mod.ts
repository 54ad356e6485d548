/**
 * Money: prices, the spend ledger, budgets and spend reporting.
 *
 * - {@linkcode costOf} / {@linkcode callCost} price one call from the AI SDK's usage.
 * - {@linkcode Ledger} is the shared SQLite ledger, one row per call.
 * - {@linkcode budgetStatus} / {@linkcode checkBudget} run before every call of a
 *   budgeted role; the sentences in `sentences.ts` are what a spent budget becomes.
 * - {@linkcode spendReport}, {@linkcode spendLines} and {@linkcode budgetLine} feed
 *   `agent spend`, the hub's `/spend` and `/status`, and the `## Now` block.
 *
 * @module
 */
export * from "./prices.ts";
export * from "./ledger.ts";
export * from "./periods.ts";
export * from "./budget.ts";
export * from "./sentences.ts";
export * from "./spend.ts";
export * from "./spend_by.ts";
export * from "./forecast.ts";
export * from "./warnings.ts";
