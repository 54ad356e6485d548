/**
 * The checks every store runs before a write, so a bad memory changes nothing wherever
 * it is stored: text (not empty, not too long, no hidden characters), kind and scope.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Lang } from "../i18n.ts";
import { estimateTokens } from "../ledger/estimate.ts";
import { memoryError } from "./errors.ts";
import { hiddenCharacters } from "./scan.ts";
import { isScope } from "./scope.ts";
import { MEMORY_KINDS, type MemoryKind, type NewMemory } from "./types.ts";

/** The most characters a memory holds: a memory is a note, not a document. */
export const MAX_TEXT_CHARS = 1000;

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
  return (MEMORY_KINDS as readonly string[]).includes(value);
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

/**
 * The text as duplicates are told apart: case, accents and spacing ignored.
 *
 * @example
 * ```ts
 * import { sameText } from "./validate.ts";
 * if (sameText("Likes  TEA.") !== sameText("likes tea")) throw new Error();
 * ```
 */
export function sameText(text: string): string {
  return text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "").replace(/[\s.!]+/g, " ")
    .trim();
}

/**
 * A short digest of {@linkcode sameText}, so a duplicate is found by an index, not by
 * reading every memory of the scope (and no second copy of the text is kept).
 */
export function sameKey(text: string): string {
  return createHash("sha256").update(sameText(text)).digest("hex").slice(0, 32);
}
