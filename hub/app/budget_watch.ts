/**
 * The hub's early budget warnings: at start and every half minute, a budgeted role that
 * passed its `warn_at` share of the cap (whichever process spent it: hub, chat, TUI) is
 * logged once per role and period and told to the channels as a `budget.warning` owner
 * event on the hub's bus, in the hub's UI language.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { AgentConfig } from "../config/types.ts";
import {
  budgetSpentSaid,
  budgetSpentSentence,
  type BudgetStatus,
  budgetStatus,
  budgetWarningLogLine,
  budgetWarningSaid,
  budgetWarningSentence,
  claimBudgetWarnings,
  formatUsd,
} from "../spend/mod.ts";
import type { Ledger } from "../ledger/mod.ts";
import type { HubContext, HubService } from "../channels/contract.ts";

/** How often the hub looks. */
export const BUDGET_WATCH_MS = 30_000;

/**
 * Looks once: logs and emits each warning and each spent budget not told yet; returns
 * how many were told.
 */
export async function watchBudgetsOnce(hub: HubContext, nowMs = Date.now()): Promise<number> {
  if (hub.ledger === undefined) return 0;
  const spent = spentBudgets(hub.ledger, hub.config, nowMs);
  for (const status of spent) {
    await hub.events.publish({
      ts: Math.floor(nowMs / 1000),
      type: "budget.spent",
      role: status.role,
      spent_usd: Number(formatUsd(status.spentUsd, "en")),
      cap_usd: status.capUsd,
      period: hub.config.models.roles[status.role]?.budget?.period ?? "month",
      text: budgetSpentSentence(hub.lang, status),
      said: budgetSpentSaid(status),
    });
  }
  const warnings = claimBudgetWarnings(hub.ledger, hub.config, nowMs, { surface: "hub" });
  for (const warning of warnings) {
    hub.logger.warn(budgetWarningLogLine(warning));
    await hub.events.publish({
      ts: Math.floor(nowMs / 1000),
      type: "budget.warning",
      role: warning.role,
      spent_usd: Number(formatUsd(warning.spentUsd, "en")),
      cap_usd: warning.capUsd,
      period: warning.period,
      text: budgetWarningSentence(hub.lang, warning),
      said: budgetWarningSaid(warning),
    });
  }
  return warnings.length + spent.length;
}

/** The budgets spent this period that the hub has not told yet (each claimed once). */
function spentBudgets(ledger: Ledger, config: AgentConfig, nowMs: number): BudgetStatus[] {
  const out: BudgetStatus[] = [];
  for (const [name, role] of Object.entries(config.models.roles)) {
    const status = budgetStatus(ledger, name, role, nowMs);
    if (status === undefined || !status.exhausted) continue;
    if (ledger.claimWarning(`hub-spent:${name}`, status.sinceMs, nowMs)) out.push(status);
  }
  return out;
}

/**
 * The watch as a hub component; none without a ledger. It looks while no role has a
 * budget that warns too (doing nothing), so a budget added while the hub runs (the
 * dashboard's Settings, `POST /config/reload`) is watched without a restart.
 */
export function budgetWatchService(hub: HubContext): Promise<HubService | undefined> {
  if (hub.ledger === undefined) return Promise.resolve(undefined);
  let timer: ReturnType<typeof setInterval> | undefined;
  const look = async () => {
    // The roles as they are now: a reload may have added or removed a budget.
    const budgeted = Object.values(hub.config.models.roles).some((r) => r.budget !== undefined);
    if (!budgeted) return;
    try {
      await watchBudgetsOnce(hub, hub.clock.now());
    } catch (error) {
      hub.logger.warn(`budget: cannot check the warnings: ${errorMessage(error)}`);
    }
  };
  return Promise.resolve({
    name: "budget-watch",
    async start() {
      await look();
      timer = setInterval(look, BUDGET_WATCH_MS);
    },
    stop() {
      clearInterval(timer);
    },
  });
}
