/**
 * Text from other agents, as a directory or a hub keeps it (card names, owner and about
 * lines): control characters (C0, C1) and characters that show as blank (Hangul
 * fillers, the blank Braille pattern) become spaces, so words they separated stay
 * apart; bidi controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and
 * zero-width or otherwise invisible characters (U+00AD, U+034F, U+180E,
 * U+200B-U+200D, U+2060-U+2064, U+FEFF) are removed, so two names that look the same
 * are the same; runs of white space become one space; the ends are trimmed.
 *
 * @module
 */

// deno-lint-ignore no-control-regex
const CONTROLS = /[\u0000-\u001F\u007F-\u009F\u115F\u1160\u3164\uFFA0\u2800]/g;
const INVISIBLE =
  /[\u00AD\u034F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/**
 * `text` on one line without control, bidi or invisible characters, cut to `max` code
 * points.
 *
 * @example
 * ```ts
 * import { cleanText } from "./text.ts";
 * if (cleanText("a\u202eb\x1b[2J  c", 80) !== "ab [2J c") throw new Error();
 * if (cleanText("Ada\nLovelace", 80) !== "Ada Lovelace") throw new Error();
 * if (cleanText("Ad\u200ba\u061c", 80) !== "Ada") throw new Error();
 * ```
 */
export function cleanText(text: string, max: number): string {
  const flat = text.replace(CONTROLS, " ").replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
  return Array.from(flat).slice(0, max).join("").trim();
}
