/**
 * Text from other agents, as a directory or a hub keeps it (card names, owner and about
 * lines): control characters (C0, C1) become spaces, so words they separated stay
 * apart; bidi controls are removed; runs of white space become one space; the ends are
 * trimmed.
 *
 * @module
 */

// deno-lint-ignore no-control-regex
const CONTROLS = /[\u0000-\u001F\u007F-\u009F]/g;
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F]/g;

/**
 * `text` on one line without control and bidi characters, cut to `max` code points.
 *
 * @example
 * ```ts
 * import { cleanText } from "./text.ts";
 * if (cleanText("a\u202eb\x1b[2J  c", 80) !== "ab [2J c") throw new Error();
 * if (cleanText("Ada\nLovelace", 80) !== "Ada Lovelace") throw new Error();
 * ```
 */
export function cleanText(text: string, max: number): string {
  const flat = text.replace(CONTROLS, " ").replace(BIDI, "").replace(/\s+/g, " ").trim();
  return Array.from(flat).slice(0, max).join("").trim();
}
