/**
 * What a channel may read of a conversation: a {@linkcode ConversationSnapshot}, a
 * plain frozen object made when asked (the role and where it goes, the session, the
 * role's budget this period, the lines waiting, the approvals open). A channel draws
 * its status bar, its queue and its approval prompt from it, and changes the
 * conversation only through its intents (`submit`, `cancel`, `decide`, `pick`,
 * `command`).
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { Ledger } from "../ledger/mod.ts";
import { spendReport } from "../spend/mod.ts";
import type { ApprovalRequest } from "./events.ts";
import type { ConversationKey, DeskChannel } from "./keys.ts";

/** A role's budget this period, as a status bar shows it. */
export interface BudgetFacts {
  spentUsd: number;
  /** `null`: the role has no budget. */
  capUsd: number | null;
  /** `day`, `week` or `month`. */
  period: string;
  /** The cap is reached. */
  exhausted: boolean;
  /** The role that answers instead once it is (`degrade_to`). */
  standIn?: string | undefined;
}

/** A line waiting behind the running answer. */
export interface QueuedLine {
  /** Stable while it waits (the `input.queued` event carries it). */
  id: string;
  text: string;
}

/** A conversation as it is now, read-only. */
export interface ConversationSnapshot {
  readonly key: ConversationKey;
  readonly channel: DeskChannel;
  readonly sessionId: string;
  /** The role that answers. */
  readonly role: string;
  readonly provider: string;
  readonly model: string;
  readonly budget: Readonly<BudgetFacts>;
  /** An answer or a command is being handled. */
  readonly busy: boolean;
  /** The lines waiting, in the order they will be handled. */
  readonly queue: readonly Readonly<QueuedLine>[];
  /** The approvals open in this conversation, oldest first. */
  readonly approvals: readonly Readonly<ApprovalRequest>[];
}

/** The budget of `role` now; a ledger that cannot be read counts as nothing spent. */
export function budgetFacts(
  config: AgentConfig,
  ledger: Ledger | undefined,
  role: string,
  nowMs: number,
): BudgetFacts {
  let entry;
  try {
    entry = spendReport(config, ledger, nowMs)[role];
  } catch {
    // The turn's own budget check reports a ledger it cannot read.
    entry = undefined;
  }
  return {
    spentUsd: entry?.spent_usd ?? 0,
    capUsd: entry?.cap_usd ?? null,
    period: entry?.period ?? "month",
    exhausted: entry?.exhausted ?? false,
    standIn: entry?.degrade_to,
  };
}

/** Freezes `value` and the arrays and objects it holds, so a reader cannot change it. */
export function frozen<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) frozen(inner);
  return Object.freeze(value);
}
