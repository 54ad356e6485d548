/**
 * The `budget` lines of `agent doctor`: each budgeted role's spend against its cap,
 * read from the ledger (opened read-only; a missing ledger is $0 and is not created).
 * A role past its cap is a `warn` that says it is not called until the reset (and who
 * answers instead), a role past `warn_at` a `warn` with its share; `fail` when the
 * ledger cannot be read.
 *
 * @module
 */
import type { CheckResult, DoctorContext } from "../doctor/types.ts";
import { DEFAULT_WARN_AT } from "../config/defaults.ts";
import { formatTime } from "../i18n.ts";
import { t } from "./_messages.ts";
import { Ledger, LedgerError } from "../ledger/ledger.ts";
import { periodWord } from "../ledger/periods.ts";
import { formatUsdAll } from "./sentences.ts";
import { answeringStandIn, budgetItems, spendReport } from "./report.ts";
import { isMetered } from "./budget.ts";
import { lookupPrice } from "../config/prices.ts";

/**
 * `ok budget: <role> $<spent> of $<cap> this month (resets <time>); ...` while no
 * budget needs attention; one `warn budget: ...` per spent or nearly spent role
 * otherwise; nothing without a configuration or without budgets.
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
    const report = spendReport(config, ledger, d.now);
    const warnings: CheckResult[] = [];
    for (const [role, entry] of Object.entries(report)) {
      const cap = entry.cap_usd;
      if (cap === null) continue;
      const warnAt = config.models.roles[role]?.budget?.warn_at ?? DEFAULT_WARN_AT;
      const near = warnAt > 0 && entry.spent_usd >= warnAt * cap;
      if (!entry.exhausted && !near) continue;
      const standIn = answeringStandIn(report, role);
      const [spent, capShown] = formatUsdAll([entry.spent_usd, cap], d.lang);
      const fields = {
        role,
        spent,
        cap: capShown,
        span: t(d.lang, `span_${periodWord(entry.period)}`),
        percent: Math.floor((entry.spent_usd / cap) * 100),
        time: formatTime(Date.parse(entry.reset_at)),
        stand_in: standIn === undefined ? "" : t(d.lang, "doctor_stand_in", { stand_in: standIn }),
      };
      const detail = t(d.lang, entry.exhausted ? "doctor_spent" : "doctor_near", fields);
      warnings.push({ name: "budget", status: "warn", detail });
    }
    // A price on a fake model only counts with the tokens it is told to report.
    for (const [role, r] of Object.entries(config.models.roles)) {
      if (r.provider !== "fake" || r.params.usage !== undefined) continue;
      if (lookupPrice(config, r.model_id) === undefined || !isMetered(r)) continue;
      warnings.push({
        name: "budget",
        status: "info",
        detail: t(d.lang, "doctor_fake_price", { role, model: r.model_id }),
      });
    }
    if (warnings.some((w) => w.status === "warn")) return Promise.resolve(warnings);
    const items = budgetItems(report, d.lang) ?? "";
    return Promise.resolve([{ name: "budget", status: "ok", detail: items }, ...warnings]);
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    const detail = t(d.lang, "ledger_unreadable", { file: error.file, detail: error.detail });
    return Promise.resolve([{ name: "budget", status: "fail", detail }]);
  } finally {
    ledger?.close();
  }
}
