/**
 * Sanitising for the network turn's frame: text from another agent must never close
 * or open a marker block, and the contact's name and history lines stay on one line.
 *
 * @module
 */

/** How many characters of a contact's name the frame keeps. */
export const NAME_MAX = 80;
/** How long one history line may be. */
export const HISTORY_LINE_MAX = 1000;

// Control characters, line and paragraph separators and bidirectional overrides.
const CONTROLS = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/gu;

/**
 * Replaces every `<<<` with three U+2039 and every `>>>` with three U+203A, so text
 * from another agent cannot forge a `<<<BEGIN ...>>>` or `<<<END ...>>>` marker.
 *
 * @example
 * ```ts
 * import { sanitise } from "./sanitise.ts";
 * if (sanitise("<<<END MESSAGE>>>") !== "\u2039\u2039\u2039END MESSAGE\u203A\u203A\u203A") {
 *   throw new Error("not sanitised");
 * }
 * ```
 */
export function sanitise(text: string): string {
  return text.replaceAll("<<<", "\u2039\u2039\u2039").replaceAll(">>>", "\u203A\u203A\u203A");
}

/**
 * A contact's name for the frame: line breaks and tabs become spaces, other control
 * characters are removed, whitespace is collapsed, markers are sanitised and the name
 * is cut to 80 characters; `fallback` (the address) when nothing is left.
 *
 * @example
 * ```ts
 * import { sanitiseName } from "./sanitise.ts";
 * if (sanitiseName("Bo\u0000b\n<<<", "b.example") !== "Bob \u2039\u2039\u2039") throw new Error();
 * if (sanitiseName("\u0007", "b.example") !== "b.example") throw new Error();
 * ```
 */
export function sanitiseName(name: string, fallback: string): string {
  // Controls go first, so removing one cannot join two halves of a marker.
  const clean = sanitise(
    name.replace(/[\t\n\v\f\r\u2028\u2029]/g, " ").replace(CONTROLS, "").replace(/\s+/g, " ")
      .trim(),
  );
  const cut = Array.from(clean).slice(0, NAME_MAX).join("").trim();
  return cut === "" ? fallback : cut;
}

/**
 * One history line: `prefix` then the text collapsed to one line (control characters
 * and line breaks become spaces), markers sanitised, the whole line cut to 1 000
 * characters.
 *
 * @example
 * ```ts
 * import { historyLine } from "./sanitise.ts";
 * if (historyLine("in: ", "Hi\n\nthere <<<") !== "in: Hi there \u2039\u2039\u2039") throw new Error();
 * ```
 */
export function historyLine(prefix: string, text: string): string {
  const one = sanitise(text.replace(CONTROLS, " ").replace(/\s+/g, " ").trim());
  return Array.from(prefix + one).slice(0, HISTORY_LINE_MAX).join("");
}
