/**
 * One ledger row from the usage a provider reported: tokens split the way they are
 * billed (input without cache, output, cache reads, cache writes) and priced.
 *
 * @module
 */
import type { PriceConfig } from "../config/types.ts";
import {
  billedTokens,
  callCost,
  type CallPurpose,
  type CallRecord,
  type Usage,
} from "../ledger/mod.ts";
import { MEMORY_ROLE } from "../memory/turn.ts";
import type { LanguageModelV4, ModelTarget } from "../models/mod.ts";
import type { CallContext } from "./call_types.ts";

/** The usage of one provider call as the AI SDK's model interface reports it. */
export type ModelUsage = Awaited<ReturnType<LanguageModelV4["doGenerate"]>>["usage"];

/**
 * The 1-hour cache writes in a provider's raw usage, which the SDK's normalized usage
 * folds into `cacheWrite`: vendor-a's `cache_creation.ephemeral_1h_input_tokens`, or
 * vendor-d's `cacheDetails` entries with `ttl` `"1h"`. 0 when the provider says nothing.
 *
 * @example
 * ```ts
 * import { cacheWrite1hOf } from "./ledger_row.ts";
 * const raw = { cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 900 } };
 * if (cacheWrite1hOf(raw) !== 900) throw new Error();
 * if (cacheWrite1hOf({ cacheDetails: [{ ttl: "1h", inputTokens: 7 }] }) !== 7) throw new Error();
 * ```
 */
export function cacheWrite1hOf(raw: unknown): number {
  if (typeof raw !== "object" || raw === null) return 0;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);
  const { cache_creation: creation, cacheDetails } = raw as Record<string, unknown>;
  if (typeof creation === "object" && creation !== null) {
    return n((creation as Record<string, unknown>).ephemeral_1h_input_tokens);
  }
  if (!Array.isArray(cacheDetails)) return 0;
  let sum = 0;
  for (const detail of cacheDetails) {
    const d = detail as { ttl?: unknown; inputTokens?: unknown } | null;
    if (d?.ttl === "1h") sum += n(d.inputTokens);
  }
  return sum;
}

/** The AI SDK's usage as money's {@linkcode Usage}: input is cache-inclusive. */
export function usageOf(usage: ModelUsage): Usage {
  const input = usage.inputTokens;
  const cacheRead = input.cacheRead ?? 0;
  const cacheWrite = input.cacheWrite ?? 0;
  return {
    inputTokens: input.total ?? (input.noCache ?? 0) + cacheRead + cacheWrite,
    outputTokens: usage.outputTokens.total ?? 0,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    cacheWrite1hTokens: cacheWrite1hOf(usage.raw),
  };
}

/** The row for one call of `role` answered by `target`. */
export function ledgerRow(
  role: string,
  target: ModelTarget,
  usage: ModelUsage,
  options: { context: CallContext; nowMs: number; price: PriceConfig | undefined },
): CallRecord {
  const tokens = usageOf(usage);
  const billed = billedTokens(tokens);
  return {
    ts: options.nowMs,
    role,
    provider: target.provider,
    model_id: target.model_id,
    input_tokens: billed.input,
    output_tokens: billed.output,
    cache_read_tokens: billed.cacheRead,
    cache_write_tokens: billed.cacheWrite,
    usd: callCost(tokens, { provider: target.provider, price: options.price }),
    channel: options.context.channel,
    session_id: options.context.sessionId ?? null,
    peer: options.context.peer ?? null,
    purpose: purposeOf(role, options.context),
    ...(options.context.recallTokens ? { recall_tokens: options.context.recallTokens } : {}),
  };
}

/**
 * What a call of `role` was for: what its context says, else `memory` for the memory
 * role's calls (a proposal, a consolidation job's turn), else an answer.
 */
export function purposeOf(role: string, context: CallContext): CallPurpose {
  return context.purpose ?? (role === MEMORY_ROLE ? "memory" : "turn");
}
