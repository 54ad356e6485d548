/**
 * Provider errors as the one sentence a turn ends with: a missing model, a key
 * without a workspace, refused credentials, throttling, an unreachable model.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import type { ModelTarget } from "../models/mod.ts";
import { t } from "./_messages.ts";
import { ModelCallError, TurnEndedError } from "./errors.ts";
import { errorDetail, statusOf } from "./failures.ts";

/** `<role> is not reachable right now (<provider> <model>: <reason>).` */
export function unreachableError(
  lang: Lang,
  role: string,
  target: ModelTarget,
  reason: string,
): ModelCallError {
  return new ModelCallError(t(lang, "not_reachable", {
    role,
    provider: target.provider,
    model: target.model_id,
    reason,
  }));
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
    return new ModelCallError(t(lang, "model_missing", vars), cause);
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
  return new ModelCallError(t(lang, "model_failed", vars), cause);
}
