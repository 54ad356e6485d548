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
