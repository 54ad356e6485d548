/**
 * The `budget` line of `agent doctor`: each budgeted role's spend against its cap,
 * read from the ledger (a missing ledger is $0 and is not created), or `fail` when the
 * ledger cannot be read.
 *
 * @module
 */
import type { CheckResult, DoctorContext } from "../doctor/types.ts";
import { t } from "./_messages.ts";
import { Ledger, LedgerError } from "./ledger.ts";
import { budgetItems, spendReport } from "./spend.ts";

/**
 * `ok budget: <role> $<spent> of $<cap> this month (resets <time>); ...` when any role
 * has a budget; nothing without a configuration or without budgets.
 */
export function budgetCheck(d: DoctorContext): Promise<CheckResult[]> {
  const config = d.config;
  if (config === undefined) return Promise.resolve([]);
  if (!Object.values(config.models.roles).some((r) => r.budget !== undefined)) {
    return Promise.resolve([]);
  }
  let ledger: Ledger | undefined;
  try {
    ledger = Ledger.openExisting(d.paths.ledgerFile);
    const items = budgetItems(spendReport(config, ledger, d.now), d.lang) ?? "";
    return Promise.resolve([{ name: "budget", status: "ok", detail: items }]);
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    const detail = t(d.lang, "ledger_unreadable", { file: error.file, detail: error.detail });
    return Promise.resolve([{ name: "budget", status: "fail", detail }]);
  } finally {
    ledger?.close();
  }
}
