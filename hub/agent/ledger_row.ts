/**
 * One ledger row from the usage a provider reported: tokens split the way they are
 * billed (input without cache, output, cache reads, cache writes) and priced.
 *
 * @module
 */
import type { PriceConfig } from "../config/types.ts";
import { billedTokens, callCost, type CallRecord, type Usage } from "../money/mod.ts";
import type { LanguageModelV4, ModelTarget } from "../models/mod.ts";
import type { CallContext } from "./call_types.ts";

/** The usage of one provider call as the AI SDK's model interface reports it. */
export type ModelUsage = Awaited<ReturnType<LanguageModelV4["doGenerate"]>>["usage"];

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
  };
}
