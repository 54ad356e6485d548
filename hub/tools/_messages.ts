/**
 * What each tier-2 tool will do, in one sentence for the owner who approves it, in
 * English and Turkish. Values from the model are cut to one line with "…" and made
 * printable, since a prompt-injected model chooses them.
 *
 * @module
 */
import { catalogue, type Lang } from "../i18n.ts";
import { oneLine, printable } from "../text.ts";

/** The tools' catalogue. */
export const t = catalogue({
  write_note: "The agent wants to save the note “{name}” ({chars}).",
  append_note: "The agent wants to add {chars} to the note “{name}”.",
  fetch_url: "The agent wants to fetch {url}.",
  net_send: "The agent wants to send {to} a message: “{text}”.",
}, {
  write_note: "Ajan “{name}” notunu kaydetmek istiyor ({chars}).",
  append_note: "Ajan “{name}” notuna {chars} eklemek istiyor.",
  fetch_url: "Ajan {url} adresini getirmek istiyor.",
  net_send: "Ajan {to} adresine bir mesaj göndermek istiyor: “{text}”.",
});

/**
 * `n` characters, in words: `1 character`, `5 characters`; `5 karakter`.
 *
 * @example
 * ```ts
 * import { characters } from "./_messages.ts";
 * if (characters("en", 1) !== "1 character" || characters("tr", 2) !== "2 karakter") {
 *   throw new Error();
 * }
 * ```
 */
export function characters(lang: Lang, n: number): string {
  return lang === "tr" ? `${n} karakter` : `${n} character${n === 1 ? "" : "s"}`;
}

/**
 * A value chosen by the model, fit for a sentence: one line, at most `max` characters
 * (cut with "…"), control characters made visible.
 *
 * @example
 * ```ts
 * import { shown } from "./_messages.ts";
 * if (shown("a\nb\x1b", 10) !== "a b\\x1b") throw new Error(shown("a\nb\x1b", 10));
 * if (shown("abcdef", 4) !== "abc…") throw new Error();
 * ```
 */
export function shown(value: unknown, max = 80): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  return printable(oneLine(text, { max, ellipsis: true }));
}
