/**
 * One provider call's way into the ledger: a pending row before it is sent (holding a
 * hard cap's reservation), then exactly one row whatever ends it: the provider's usage
 * when it came, else an estimate (the prompt and what streamed) marked `estimated`. A
 * call that was never sent (a stand-in answered, a key was missing, the host refused
 * the connection, the provider answered with an HTTP error) leaves no row.
 *
 * @module
 */
import { lookupPrice } from "../config/prices.ts";
import type { AgentConfig, RoleConfig } from "../config/types.ts";
import type { Logger } from "../log.ts";
import { type BudgetStatus, isMetered } from "../spend/mod.ts";
import type { Ledger, PendingCall } from "../ledger/mod.ts";
import type { ModelTarget } from "../models/mod.ts";
import type { CallContext } from "./call_types.ts";
import { estimateTokens, jsonChars, RESERVE_CHARS_PER_TOKEN } from "../ledger/estimate.ts";
import { errorDetail } from "./failures.ts";
import { ledgerRow, type ModelUsage, purposeOf } from "./ledger_row.ts";

/**
 * The output cap a hard-capped role's calls get when the role sets no `max_tokens`, so
 * the reservation (`max_tokens` × output price) bounds what the call can cost.
 */
export const HARD_CAP_MAX_TOKENS = 4096;

/** The role a call goes to, as the bill needs it. */
export interface BillRole {
  name: string;
  role: RoleConfig;
  target: ModelTarget;
}

/** Options for {@linkcode CallBill}. */
export interface CallBillOptions {
  ledger: Ledger | undefined;
  config: AgentConfig;
  logger: Logger;
  now: () => number;
  context: CallContext;
  /** The call's prompt (and tools), measured for the estimates. */
  prompt: unknown;
  /** The tool definitions the call sends, measured for the row's `tool_tokens`. */
  tools?: unknown;
}

/** The ledger side of one provider call. */
export class CallBill {
  /** The call's id, kept by its pending row and its row. */
  readonly callId: string = crypto.randomUUID();
  #o: CallBillOptions;
  #promptChars: number;
  #toolTokens: number;
  #pending: string | undefined;
  #settled = false;
  #streamed = 0;

  constructor(options: CallBillOptions) {
    this.#o = options;
    this.#promptChars = jsonChars(options.prompt);
    this.#toolTokens = options.tools === undefined ? 0 : estimateTokens(jsonChars(options.tools));
  }

  /**
   * The output cap of a call of `r` (its `max_tokens`, or the hard-cap default when a
   * hard cap or a session ceiling must bound what the call can cost).
   */
  static maxTokens(r: BillRole, ceiling = false): number | undefined {
    return r.target.max_tokens ??
      (r.role.budget?.hard === true || ceiling ? HARD_CAP_MAX_TOKENS : undefined);
  }

  /**
   * Holds the call's most possible cost against its session's ceiling (a job's run):
   * `false` when it does not fit (nothing is sent then). A call that reserved under a
   * hard cap already is measured with that reservation in place.
   */
  holdCeiling(r: BillRole): boolean {
    const ledger = this.#o.ledger;
    const ceiling = this.#o.context.ceiling;
    const sessionId = this.#o.context.sessionId;
    if (ledger === undefined || ceiling === undefined || !sessionId) return true;
    const cap = { sessionId, usd: ceiling.usd, sinceMs: ceiling.sinceMs };
    if (this.#pending === r.name) {
      const { spentUsd, reservedUsd } = ledger.sessionSpend(sessionId, ceiling.sinceMs);
      if (spentUsd + reservedUsd <= ceiling.usd + 1e-9) return true;
      this.release();
      return false;
    }
    this.release();
    const result = ledger.begin(this.#pendingOf(r, true), undefined, cap);
    if (result.ok) this.#pending = r.name;
    return result.ok;
  }

  /**
   * Reserves the call's most possible cost under `r`'s hard cap (prompt bound × input
   * price + max tokens × output price) in the same transaction as the check; false
   * when it does not fit.
   */
  reserve(r: BillRole, status: BudgetStatus): boolean {
    const ledger = this.#o.ledger;
    if (ledger === undefined) return true;
    const pending = this.#pendingOf(r, true);
    const result = ledger.begin(pending, { usd: status.capUsd, sinceMs: status.sinceMs });
    if (result.ok) this.#pending = r.name;
    return result.ok;
  }

  /** The call is about to be sent to `r`: a pending row unless it has one. */
  sending(r: BillRole): void {
    const ledger = this.#o.ledger;
    if (ledger === undefined || !isMetered(r.role) || this.#pending === r.name) return;
    this.release();
    try {
      ledger.begin(this.#pendingOf(r, false));
      this.#pending = r.name;
    } catch (error) {
      this.#o.logger.error(
        `role ${r.name}: cannot write the pending ledger row: ${errorDetail(error)}`,
      );
    }
  }

  /** The call was not sent after all: its pending row (and reservation) goes. */
  release(): void {
    if (this.#pending === undefined) return;
    this.#pending = undefined;
    try {
      this.#o.ledger?.release(this.callId);
    } catch (error) {
      this.#o.logger.error(`cannot release a pending ledger row: ${errorDetail(error)}`);
    }
  }

  /** `chars` more characters streamed (for the estimate of a call cut short). */
  streamed(chars: number): void {
    this.#streamed += chars;
  }

  /** The call ended with `usage` from the provider (`estimated` when partial). */
  settle(r: BillRole, usage: ModelUsage, estimated = false): void {
    if (this.#settled) return;
    this.#settled = true;
    const ledger = this.#o.ledger;
    if (ledger === undefined) return;
    if (!isMetered(r.role)) return this.release();
    try {
      const row = {
        ...ledgerRow(r.name, r.target, usage, {
          context: this.#o.context,
          nowMs: this.#o.now(),
          price: lookupPrice(this.#o.config, r.target.model_id),
        }),
        estimated,
        call_id: this.callId,
        ...(this.#toolTokens > 0 ? { tool_tokens: this.#toolTokens } : {}),
      };
      if (this.#pending !== undefined) ledger.settle(row);
      else ledger.record(row);
      this.#pending = undefined;
    } catch (error) {
      this.#o.logger.error(`role ${r.name}: cannot write the ledger row: ${errorDetail(error)}`);
    }
  }

  /**
   * The call ended before the provider reported usage: the prompt and what streamed, at
   * about 4 characters a token, marked estimated. Nothing when it was settled already.
   */
  settleEstimated(r: BillRole, partial?: ModelUsage): void {
    if (this.#settled) return;
    const input = estimateTokens(this.#promptChars);
    const output = estimateTokens(this.#streamed);
    const reportedInput = partial?.inputTokens.total;
    const usage: ModelUsage = partial !== undefined && reportedInput !== undefined
      ? {
        ...partial,
        outputTokens: {
          total: Math.max(partial.outputTokens.total ?? 0, output),
          text: Math.max(partial.outputTokens.text ?? 0, output),
          reasoning: partial.outputTokens.reasoning,
        },
      }
      : {
        inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: output, text: output, reasoning: 0 },
      };
    this.settle(r, usage, true);
  }

  #pendingOf(r: BillRole, hard: boolean): PendingCall {
    const price = lookupPrice(this.#o.config, r.target.model_id);
    const input = estimateTokens(this.#promptChars);
    const bound = estimateTokens(this.#promptChars, RESERVE_CHARS_PER_TOKEN);
    // What callCost does: local-runtime and an unpriced fake are free; a price counts.
    const provider = r.target.provider;
    const free = provider === "local-runtime" || (provider === "fake" && price === undefined);
    const priced = free ? undefined : price;
    const maxTokens = CallBill.maxTokens(r, this.#o.context.ceiling !== undefined) ?? 0;
    const reserve = hard && priced !== undefined
      ? (bound * priced.input + maxTokens * priced.output) / 1e6
      : 0;
    const { context } = this.#o;
    return {
      call_id: this.callId,
      ts: this.#o.now(),
      pid: Deno.pid,
      role: r.name,
      provider: r.target.provider,
      model_id: r.target.model_id,
      input_tokens: input,
      estimate_usd: free ? 0 : priced === undefined ? null : (input * priced.input) / 1e6,
      reserved_usd: reserve,
      channel: context.channel,
      session_id: context.sessionId ?? null,
      peer: context.peer ?? null,
      purpose: purposeOf(r.name, context),
    };
  }
}
