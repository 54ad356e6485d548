/**
 * {@linkcode MemoryError}: bad input to the memory store (an unknown id, empty text, a
 * scope that does not exist, an oversized import) or a store that cannot be used, as
 * one sentence in the caller's language. Nothing was changed when it is thrown. It is a
 * `UserError`, so the `agent` command prints the sentence and exits with its code (2
 * for bad input), and a tool hands the sentence back to the model.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import type { Vars } from "../i18n.ts";
import { UserError } from "../user_error.ts";
import { type MemoryKey, t } from "./_messages.ts";

/** Bad input or an unusable store, as one sentence; `code` names which. */
export class MemoryError extends UserError {
  override name = "MemoryError";
  /** The catalogue key of the sentence (`unknown_id`, `empty_text`, ...). */
  readonly code: MemoryKey;
  /** Made by {@linkcode memoryError}. */
  constructor(code: MemoryKey, sentence: string, exitCode: number, options?: ErrorOptions) {
    super(sentence, exitCode, options);
    this.code = code;
  }
}

/**
 * The error of `code` in `lang`: exit code 1 for a store that cannot be used
 * (`store_failed`, `cloud_failed`), 2 for bad input.
 *
 * @example
 * ```ts
 * import { memoryError } from "./errors.ts";
 * const e = memoryError("en", "unknown_id", { id: 7 });
 * if (e.message !== "There is no memory 7." || e.exitCode !== 2) throw new Error(e.message);
 * ```
 */
export function memoryError(
  lang: Lang,
  code: MemoryKey,
  vars?: Vars,
  options?: ErrorOptions,
): MemoryError {
  const exit = code === "store_failed" || code === "cloud_failed" ? 1 : 2;
  return new MemoryError(code, t(lang, code, vars), exit, options);
}
