/**
 * The agent: {@linkcode buildAgent} for a channel's turns, and the
 * {@linkcode ModelRouter} call chain every model call goes through (budget check,
 * stand-in choice, provider call, pricing, ledger row).
 *
 * @module
 */
export * from "./errors.ts";
export * from "./call.ts";
export { ledgerRow, usageOf } from "./ledger_row.ts";
export * from "./agent.ts";
export { retryDelay, type RetryOptions, retryThrottled } from "./retry.ts";
export { unreachableReason } from "./failures.ts";
