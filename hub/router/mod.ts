/**
 * The call chain every model call goes through: {@linkcode ModelRouter} (budget check,
 * stand-in choice, provider call with its retries, the stream and local watchdogs,
 * pricing and the ledger row), the tool loop that calls it once per step, and the
 * errors a call ends with.
 *
 * @module
 */
export * from "./errors.ts";
export * from "./call.ts";
export { ledgerRow, usageOf } from "./ledger_row.ts";
export { retryDelay, type RetryOptions, retryThrottled } from "./retry.ts";
export { unreachableReason } from "./failures.ts";
