/**
 * Budgets: the check before every call of a budgeted role. The caller (the call
 * chain) decides what happens when a budget is spent; {@linkcode checkBudget} walks
 * `degrade_to` stand-ins so it has one answer to act on.
 *
 * @module
 */
import type { AgentConfig, RoleConfig } from "../config/types.ts";
import type { Ledger } from "../ledger/ledger.ts";
import { periodBounds } from "../ledger/periods.ts";

/** The state of one role's budget in its current period. */
export interface BudgetStatus {
  role: string;
  /** Dollars spent since the period start. */
  spentUsd: number;
  /** The budget's cap. */
  capUsd: number;
  /** Spent reached or passed the cap: the role is not called until the reset. */
  exhausted: boolean;
  /** Start of the current period, epoch ms. */
  sinceMs: number;
  /** When the budget resets, epoch ms. */
  resetMs: number;
  /** The stand-in role, when `degrade_to` is configured. */
  degradeTo?: string;
}

/**
 * Whether a role's calls are written to the ledger: only roles with a budget or a
 * failover are metered.
 */
export function isMetered(role: RoleConfig): boolean {
  return role.budget !== undefined || role.failover !== undefined;
}

/**
 * The budget state of `roleName` at `nowMs`, summed from the ledger; `undefined`
 * when the role has no budget.
 *
 * @example
 * ```ts
 * import { Ledger } from "../ledger/ledger.ts";
 * import { budgetStatus } from "./budget.ts";
 * const dir = Deno.makeTempDirSync();
 * const ledger = Ledger.open(`${dir}/spend.sqlite3`);
 * const role = { provider: "fake", model_id: "m", params: {}, budget: { usd: 1, period: "day" } } as const;
 * const status = budgetStatus(ledger, "fast", role, Date.now());
 * ledger.close();
 * Deno.removeSync(dir, { recursive: true });
 * if (status?.exhausted !== false) throw new Error();
 * ```
 */
export function budgetStatus(
  ledger: Ledger,
  roleName: string,
  role: RoleConfig,
  nowMs: number,
): BudgetStatus | undefined {
  const budget = role.budget;
  if (budget === undefined) return undefined;
  const { sinceMs, resetMs } = periodBounds(budget.period, nowMs);
  const spentUsd = ledger.spent(roleName, sinceMs).usd;
  const status: BudgetStatus = {
    role: roleName,
    spentUsd,
    capUsd: budget.usd,
    exhausted: spentUsd >= budget.usd,
    sinceMs,
    resetMs,
  };
  if (budget.degrade_to !== undefined) status.degradeTo = budget.degrade_to;
  return status;
}

/** What to do about budgets before a call. */
export type BudgetDecision =
  | {
    /** Call `role`. */
    ok: true;
    /** The role to call: the one asked for, or the stand-in it degraded to. */
    role: string;
    /** The spent budgets passed on the way, first the role asked for; empty when none. */
    degraded: BudgetStatus[];
  }
  | {
    /** Make no call; the turn ends with {@linkcode budgetSpentMessage}. */
    ok: false;
    /** The role asked for, whose budget is spent. */
    spent: BudgetStatus;
    /** The stand-in that is spent too (the last one, when stand-ins chain). */
    standIn?: BudgetStatus;
  };

/**
 * Checks `roleName`'s budget before a call and follows `degrade_to` while budgets are
 * spent. A stand-in is an ordinary role, so its own budget (and its own `degrade_to`)
 * applies. A role that names an undefined stand-in, or a chain that comes back to a
 * role already passed (the config loader refuses both), ends like a spent stand-in.
 *
 * `fits` is asked for each role with a hard cap (`budget.hard`) whose budget is not
 * spent: it reserves the call's most possible cost and says whether it fit under the
 * cap (see `Ledger.begin`); one that does not fit degrades like a spent budget.
 */
export function checkBudget(
  ledger: Ledger,
  config: AgentConfig,
  roleName: string,
  nowMs: number,
  fits?: (roleName: string, status: BudgetStatus) => boolean,
): BudgetDecision {
  const degraded: BudgetStatus[] = [];
  let name = roleName;
  for (;;) {
    const role = config.models.roles[name];
    const status = role === undefined ? undefined : budgetStatus(ledger, name, role, nowMs);
    if (status === undefined) return { ok: true, role: name, degraded };
    // A hard cap: the call's reservation must fit (taken in the same transaction as the
    // check); a call that does not fit is treated as a spent budget.
    if (!status.exhausted && role?.budget?.hard === true && fits !== undefined) {
      if (!fits(name, status)) status.exhausted = true;
    }
    if (!status.exhausted) return { ok: true, role: name, degraded };
    const first = degraded[0];
    const next = status.degradeTo;
    if (
      next === undefined || config.models.roles[next] === undefined || next === roleName ||
      degraded.some((d) => d.role === next)
    ) {
      if (first === undefined) return { ok: false, spent: status };
      return { ok: false, spent: first, standIn: status };
    }
    degraded.push(status);
    name = next;
  }
}
