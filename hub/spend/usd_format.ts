/**
 * How an amount of dollars or a count is written and read, everywhere a person sees or
 * types one: a sentence, the CLI's tables, the TUI, the messenger, the dashboard (whose
 * bundle imports this file, so it imports nothing). Two decimals hide small amounts and
 * make true sentences read false (`$0.01 … would pass … $0.02` for $0.014) and columns
 * that do not add up (`$0.01 + $0.01 = $0.03`); these functions show the digits the
 * reader needs.
 *
 * Every number a person reads uses the separators of the reader's language, dollars
 * included: in Turkish a decimal comma and a grouping dot (`$0,014`, `$1.234,56`, `1.234`),
 * in English a decimal point and a grouping comma (`$0.014`, `$1,234.56`, `1,234`).
 * Machine formats (JSON, CSV, `agent.toml`, the ledger) never come here. The separators
 * themselves, and counts, come from `../numbers.ts`.
 *
 * @module
 */
import { formatCount, type NumberLang, withSeparators } from "../numbers.ts";

export { formatCount, type NumberLang, withSeparators };

/** The most decimals an amount is shown with (a millionth of a cent is below any price). */
const MAX_DECIMALS = 8;

/**
 * Dollars without the `$`: two decimals, and below ten cents the digits that keep a small
 * amount from reading as nothing or as a rounder one (`0.014`, not `0.01`; `0.0042`;
 * `0.000027`, not `0.0000`), with `lang`'s separators.
 *
 * @example
 * ```ts
 * import { formatUsd } from "./usd_format.ts";
 * if (formatUsd(15, "en") !== "15.00" || formatUsd(0.0042, "en") !== "0.0042") {
 *   throw new Error();
 * }
 * if (formatUsd(0.014, "tr") !== "0,014" || formatUsd(1234.5, "tr") !== "1.234,50") {
 *   throw new Error();
 * }
 * ```
 */
export function formatUsd(usd: number, lang: NumberLang): string {
  return withSeparators(plainUsd(usd), lang);
}

/**
 * Reads an amount of dollars as a person types it: an optional `$`, and in Turkish a
 * decimal comma (`2,50`, `1.250,75`; a lone `2.5` is read as the point it is, since a
 * grouping dot is followed by three digits); in English a comma groups thousands
 * (`1,250.75`). `undefined` when it is not a number of dollars.
 *
 * @example
 * ```ts
 * import { parseUsd } from "./usd_format.ts";
 * if (parseUsd("2,50", "tr") !== 2.5 || parseUsd("1.250,75", "tr") !== 1250.75) throw new Error();
 * if (parseUsd("0.5", "tr") !== 0.5) throw new Error();
 * if (parseUsd("$1,250.75", "en") !== 1250.75) throw new Error();
 * if (parseUsd("abc", "en") !== undefined) throw new Error();
 * ```
 */
export function parseUsd(text: string, lang: NumberLang): number | undefined {
  let s = text.trim().replace(/^\$\s*/, "").replace(/\s/g, "");
  s = lang === "tr"
    ? s.replace(/\.(?=\d{3}(\D|$))/g, "").replace(",", ".")
    : s.replace(/,(?=\d{3}(\D|$))/g, "");
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(s)) return undefined;
  return Number(s);
}

/** Dollars with a decimal point and no grouping, as `toFixed()` writes them. */
function plainUsd(usd: number): string {
  const value = amount(usd);
  return value.toFixed(decimalsFor(value));
}

/**
 * Amounts a sentence compares (`$spent of $cap`, a run that would pass a ceiling), each
 * as {@linkcode formatUsd} shows it, with more digits where two amounts that differ
 * would read the same, so a sentence never reads false (`$0.0149 of $0.0150`, not
 * `$0.015 of $0.015`); with `lang`'s separators.
 *
 * @example
 * ```ts
 * import { formatUsdAll } from "./usd_format.ts";
 * if (formatUsdAll([0.014, 0.02], "en").join(" ") !== "0.014 0.02") throw new Error();
 * if (formatUsdAll([12.1, 15], "en").join(" ") !== "12.10 15.00") throw new Error();
 * if (formatUsdAll([0.0149, 0.015], "en").join(" ") !== "0.0149 0.0150") throw new Error();
 * if (formatUsdAll([14.999, 15], "tr").join(" ") !== "14,999 15,000") throw new Error();
 * ```
 */
export function formatUsdAll<const T extends readonly number[]>(
  usds: T,
  lang: NumberLang,
): { -readonly [K in keyof T]: string } {
  const values = usds.map(amount);
  const decimals = values.map(decimalsFor);
  // Two amounts that differ but would read the same both get a digit more, until none do.
  for (let round = 0; round < MAX_DECIMALS; round++) {
    const shown = values.map((v, i) => v.toFixed(decimals[i]!));
    let clash = false;
    values.forEach((a, i) =>
      values.forEach((b, j) => {
        if (i >= j || a === b || shown[i] !== shown[j]) return;
        clash = true;
        const more = Math.min(MAX_DECIMALS, Math.max(decimals[i]!, decimals[j]!) + 1);
        decimals[i] = decimals[j] = more;
      })
    );
    if (!clash) break;
  }
  return values.map((v, i) => withSeparators(v.toFixed(decimals[i]!), lang)) as {
    -readonly [K in keyof T]: string;
  };
}

/**
 * A column of amounts and their total, all with one number of decimals: enough for the
 * smallest amount to show ({@linkcode formatUsd}), and more until the parts as shown add
 * up to the total as shown (`0.014 + 0.014 = 0.028`, where two decimals read `0.01 +
 * 0.01 = 0.03`). Answers the parts, then the total, with `lang`'s separators, and
 * `decimals`, the number of decimals they share (a table of several columns gives them
 * all the most any needs, with {@linkcode formatUsdFixed}).
 *
 * @example
 * ```ts
 * import { formatUsdColumn } from "./usd_format.ts";
 * const { parts, total } = formatUsdColumn([0.014, 0.014], 0.028, "en");
 * if (parts.join(" ") !== "0.014 0.014" || total !== "0.028") throw new Error();
 * const money = formatUsdColumn([1.004, 1.004, 1.004], 3.012, "tr");
 * if (money.parts.join(" ") !== "1,004 1,004 1,004" || money.total !== "3,012") throw new Error();
 * if (formatUsdColumn([1.5, 2.25], 3.75, "en").decimals !== 2) throw new Error();
 * ```
 */
export function formatUsdColumn(
  usds: readonly number[],
  totalUsd: number,
  lang: NumberLang,
): { parts: string[]; total: string; decimals: number } {
  const values = usds.map(amount);
  const total = amount(totalUsd);
  let decimals = Math.max(
    ...[...values, total].map((v) => plainUsd(v).split(".")[1]!.length),
  );
  // In whole units of the last shown digit, so the sum has no float noise of its own.
  const adds = (d: number) =>
    values.reduce((sum, v) => sum + Math.round(Number(v.toFixed(d)) * 10 ** d), 0) ===
      Math.round(Number(total.toFixed(d)) * 10 ** d);
  while (decimals < MAX_DECIMALS && !adds(decimals)) decimals++;
  const shown = (v: number) => withSeparators(v.toFixed(decimals), lang);
  return { parts: values.map(shown), total: shown(total), decimals };
}

/**
 * Dollars with a given number of decimals (a table whose columns share theirs, from
 * {@linkcode formatUsdColumn}'s `decimals`), with `lang`'s separators.
 *
 * @example
 * ```ts
 * import { formatUsdFixed } from "./usd_format.ts";
 * if (formatUsdFixed(1234.5, { decimals: 3, lang: "tr" }) !== "1.234,500") throw new Error();
 * ```
 */
export function formatUsdFixed(
  usd: number,
  options: { decimals: number; lang: NumberLang },
): string {
  return withSeparators(amount(usd).toFixed(options.decimals), options.lang);
}

function amount(usd: number): number {
  return Number.isFinite(usd) && usd > 0 ? usd : 0;
}

/**
 * Two decimals from ten cents up, and for whole cents; a third for the tenths of a cent
 * below ten cents (`0.014`); below a cent at least four, and two significant digits.
 */
function decimalsFor(value: number): number {
  if (value === 0 || value >= 0.1) return 2;
  if (value >= 0.01) return Number(value.toFixed(3)) === Number(value.toFixed(2)) ? 2 : 3;
  return Math.min(MAX_DECIMALS, Math.max(4, 1 - Math.floor(Math.log10(value))));
}
