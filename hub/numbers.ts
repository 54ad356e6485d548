/**
 * Numbers as a person reads them, with the separators of the reader's language: counts
 * grouped (`1,234` in English, `1.234` in Turkish) and a number written with a decimal
 * point given the language's decimal mark. One place for both, below every catalogue and
 * formatter that writes numbers (`i18n.ts`, `spend/usd_format.ts`); it imports nothing,
 * since the dashboard's bundle takes it too.
 *
 * @module
 */

/** The languages a number is written in (the hub's `Lang`). */
export type NumberLang = "en" | "tr";

/**
 * A count (tokens, calls, messages) with its thousands grouped as `lang` groups them:
 * `1,234` in English, `1.234` in Turkish.
 *
 * @example
 * ```ts
 * import { formatCount } from "./numbers.ts";
 * if (formatCount(1234567, "en") !== "1,234,567") throw new Error();
 * if (formatCount(1234, "tr") !== "1.234" || formatCount(12, "tr") !== "12") throw new Error();
 * ```
 */
export function formatCount(value: number, lang: NumberLang): string {
  const n = Number.isFinite(value) ? Math.round(value) : 0;
  const digits = grouped(String(Math.abs(n)), lang === "tr" ? "." : ",");
  return n < 0 ? `-${digits}` : digits;
}

/**
 * A number written with a decimal point (`toFixed()`, `String()`, a chart's axis step)
 * with `lang`'s separators instead.
 *
 * @example
 * ```ts
 * import { withSeparators } from "./numbers.ts";
 * if (withSeparators("0.005", "tr") !== "0,005" || withSeparators("1500", "tr") !== "1.500") {
 *   throw new Error();
 * }
 * if (withSeparators("1500.5", "en") !== "1,500.5") throw new Error();
 * ```
 */
export function withSeparators(fixed: string, lang: NumberLang): string {
  const [whole = "0", fraction] = fixed.split(".");
  const [group, decimal] = lang === "tr" ? [".", ","] : [",", "."];
  const digits = grouped(whole, group);
  return fraction === undefined ? digits : `${digits}${decimal}${fraction}`;
}

/** `1234567` as `1<sep>234<sep>567`. */
function grouped(digits: string, separator: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}
