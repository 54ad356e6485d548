/**
 * Provider errors as the one sentence a turn ends with: a missing model, a key
 * without a workspace, refused credentials, throttling, an unreachable model.
 *
 * @module
 */
import { JSONParseError, TypeValidationError } from "@ai-sdk/provider";
import type { Lang } from "../i18n.ts";
import type { ModelTarget } from "../models/mod.ts";
import { t } from "./_messages.ts";
import { ModelCallError, StreamCutError, TurnEndedError, UnreachableError } from "./errors.ts";
import { errorDetail, statusOf } from "./failures.ts";
import { reasonWords } from "../models/reason_words.ts";

/** `<role> is not reachable right now (<provider> <model>: <reason>).` */
export function unreachableError(
  lang: Lang,
  role: string,
  target: ModelTarget,
  reason: string,
): UnreachableError {
  const last = { role, provider: target.provider, model: target.model_id, reason };
  return new UnreachableError(
    t(lang, "not_reachable", { ...last, reason: reasonWords(lang, reason) }),
    last,
  );
}

/**
 * `<role> is not reachable right now, and neither is <stand-in>, which stands in for
 * it (<provider> <model>: <reason>).`: the role asked for, after its failover chain
 * ended at an unreachable stand-in too.
 */
export function unreachableChainError(
  lang: Lang,
  role: string,
  standIn: UnreachableError,
): UnreachableError {
  const last = standIn.last;
  const sentence = t(lang, "not_reachable_chain", {
    ...last,
    reason: reasonWords(lang, last.reason),
    role,
    stand_in: last.role,
  });
  return new UnreachableError(sentence, last, { cause: standIn });
}

/** Options for {@linkcode callError}. */
export interface CallErrorOptions {
  /** Why the model counts as unreachable, when it does. */
  reason?: string | undefined;
  /** Tries the 429 policy made. */
  attempts: number;
}

/** The sentence for a failed call of `role` on `target`. */
export function callError(
  lang: Lang,
  error: unknown,
  role: string,
  target: ModelTarget,
  options: CallErrorOptions,
): TurnEndedError {
  if (error instanceof TurnEndedError) return error;
  if (options.reason !== undefined) return unreachableError(lang, role, target, options.reason);
  const status = statusOf(error);
  const detail = errorDetail(error);
  const vars = { role, provider: target.provider, model: target.model_id, detail };
  const cause = { cause: error };
  if (status === 404 || /model .*not found|not_found_error|no such model/i.test(detail)) {
    // "Pull" is what a local model server does; a hosted vendor's model is chosen, not pulled.
    const key = target.provider === "local-runtime" ? "model_missing" : "model_unknown";
    return new ModelCallError(t(lang, key, vars), cause);
  }
  if (status === 400 && target.provider === "vendor-a" && /workspace/i.test(detail)) {
    return new ModelCallError(t(lang, "workspace_needed", vars), cause);
  }
  if (status === 401 || status === 403) {
    return new ModelCallError(t(lang, "auth_failed", { ...vars, status }), cause);
  }
  if (status === 429) {
    return new ModelCallError(t(lang, "throttled", { ...vars, tries: options.attempts }), cause);
  }
  if (isMalformed(error)) return new ModelCallError(t(lang, "model_malformed", vars), cause);
  return new ModelCallError(t(lang, "model_failed", vars), cause);
}

/** Whether the provider answered something that is not its API's format (a wrong base_url, a proxy's page). */
function isMalformed(error: unknown): boolean {
  if (error instanceof StreamCutError) return !error.answered;
  let current: unknown = error;
  for (let i = 0; i < 5 && current instanceof Error; i++) {
    if (JSONParseError.isInstance(current) || TypeValidationError.isInstance(current)) return true;
    // The vendor-a SDK's own words for a first stream event it cannot read, and the
    // SDK's for a stream that ended without its finish event.
    if (/normalized .* stream error|stream ended without a finish/i.test(current.message)) {
      return true;
    }
    current = current.cause;
  }
  return false;
}
