/**
 * The checks every store runs before a write, so a bad memory changes nothing wherever
 * it is stored: text (not empty, not too long, no hidden characters), kind and scope.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import { estimateTokens } from "../ledger/estimate.ts";
import { memoryError } from "./errors.ts";
import {
  hiddenCharacters,
  isScope,
  MAX_TEXT_CHARS,
  MEMORY_KIND_NAMES,
  sameKey,
  sameText,
} from "@agent/net/memory";
import type { MemoryKind, NewMemory } from "./types.ts";

export { MAX_TEXT_CHARS, sameKey, sameText };

/**
 * `text` ready to store: NFC, trimmed, runs of blank lines folded. Throws a
 * `MemoryError` when it is empty, longer than {@linkcode MAX_TEXT_CHARS} or holds hidden
 * characters.
 *
 * @example
 * ```ts
 * import { checkText } from "./validate.ts";
 * if (checkText("  Likes tea \n", "en") !== "Likes tea") throw new Error();
 * ```
 */
export function checkText(text: string, lang: Lang): string {
  const clean = text.normalize("NFC").trim().replace(/\n{3,}/g, "\n\n");
  if (clean === "") throw memoryError(lang, "empty_text");
  const chars = [...clean].length;
  if (chars > MAX_TEXT_CHARS) {
    throw memoryError(lang, "too_long", { max: MAX_TEXT_CHARS, chars });
  }
  const hidden = hiddenCharacters(clean);
  if (hidden.length > 0) throw memoryError(lang, "hidden_chars", { chars: hidden.join(", ") });
  return clean;
}

/** Whether `value` is a kind of memory. */
export function isKind(value: string): value is MemoryKind {
  return (MEMORY_KIND_NAMES as readonly string[]).includes(value);
}

/** `memory` checked: its text made ready, its kind and scope known. Throws `MemoryError`. */
export function checkNew(memory: NewMemory, lang: Lang): NewMemory & { text: string } {
  if (!isScope(memory.scope)) throw memoryError(lang, "unknown_scope", { scope: memory.scope });
  const kind = memory.kind ?? "fact";
  if (!isKind(kind)) throw memoryError(lang, "unknown_kind", { kind });
  return { ...memory, kind, text: checkText(memory.text, lang) };
}

/** The estimated tokens of a memory's text (what recall counts against its budget). */
export function textTokens(text: string): number {
  return estimateTokens(text.length);
}
