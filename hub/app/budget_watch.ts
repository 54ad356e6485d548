/**
 * The hub's early budget warnings: at start and every half minute, a budgeted role that
 * passed its `warn_at` share of the cap (whichever process spent it: hub, chat, TUI) is
 * logged once per role and period and told to the channels as a `budget.warning` agent
 * event, in the hub's UI language.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import {
  budgetWarningLogLine,
  budgetWarningSentence,
  claimBudgetWarnings,
  formatUsd,
} from "../money/mod.ts";
import { appendNetEvent } from "../network/mod.ts";
import type { HubChannel, HubContext } from "./channel_types.ts";
import { DEFAULT_WARN_AT } from "../config/defaults.ts";

/** How often the hub looks. */
export const BUDGET_WATCH_MS = 30_000;

/** Looks once: logs and emits each warning not told yet; returns how many were told. */
export async function watchBudgetsOnce(hub: HubContext, nowMs = Date.now()): Promise<number> {
  if (hub.ledger === undefined) return 0;
  const warnings = claimBudgetWarnings(hub.ledger, hub.config, nowMs, { surface: "hub" });
  for (const warning of warnings) {
    hub.logger.warn(budgetWarningLogLine(warning));
    await appendNetEvent(hub.paths.netDir, {
      ts: Math.floor(nowMs / 1000),
      type: "budget.warning",
      role: warning.role,
      spent_usd: Number(formatUsd(warning.spentUsd)),
      cap_usd: warning.capUsd,
      period: warning.period,
      text: budgetWarningSentence(hub.lang, warning),
    });
  }
  return warnings.length;
}

/** The watch as a hub component; none when no role has a budget that warns. */
export function budgetWatchChannel(hub: HubContext): Promise<HubChannel | undefined> {
  const warns = Object.values(hub.config.models.roles).some((r) =>
    r.budget !== undefined && (r.budget.warn_at ?? DEFAULT_WARN_AT) > 0
  );
  if (hub.ledger === undefined || !warns) return Promise.resolve(undefined);
  let timer: ReturnType<typeof setInterval> | undefined;
  const look = async () => {
    try {
      await watchBudgetsOnce(hub);
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
