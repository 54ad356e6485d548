/**
 * Text shown on one line: a log line, a list entry, a reason.
 *
 * @module
 */

/** Options for {@linkcode oneLine}. */
export interface OneLineOptions {
  /** The most characters (code points) kept. @default no limit */
  max?: number;
  /** End a cut text with `…` (within `max`). @default false */
  ellipsis?: boolean;
}

/**
 * `text` on one line: every run of white space (newlines included) becomes one space,
 * the ends are trimmed, and the result is cut to `max` code points.
 *
 * @example
 * ```ts
 * import { oneLine } from "./text.ts";
 * if (oneLine(" a\n  b ") !== "a b") throw new Error();
 * if (oneLine("abcdef", { max: 4, ellipsis: true }) !== "abc…") throw new Error();
 * if (oneLine("abcdef", { max: 4 }) !== "abcd") throw new Error();
 * ```
 */
export function oneLine(text: string, options: OneLineOptions = {}): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const max = options.max;
  if (max === undefined) return flat;
  const chars = Array.from(flat);
  if (chars.length <= max) return flat;
  return options.ellipsis === true
    ? `${chars.slice(0, max - 1).join("")}…`
    : chars.slice(0, max).join("");
}

// C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069).
// deno-lint-ignore no-control-regex
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Text that came from another agent or a card, made safe to show in a terminal, a log
 * or a chat: terminal control characters and bidi controls become visible escapes
 * (`\x1b`, `\u202e`), so an escape sequence cannot act and a name cannot run backwards.
 * Tabs and newlines stay.
 *
 * @example
 * ```ts
 * import { printable } from "./text.ts";
 * if (printable("hi\x1b[2J") !== "hi\\x1b[2J") throw new Error();
 * if (printable("a\u202eb") !== "a\\u202eb") throw new Error();
 * ```
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    const code = ch.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
