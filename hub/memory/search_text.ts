/**
 * Text as the search index sees it, and a person's words as an FTS5 query. The index's
 * tokenizer (`unicode61 remove_diacritics 2`) folds accents (`ş` to `s`, `İ` to `i`), but
 * not the Turkish dotless `ı`, which is a letter of its own; it is folded here, in the
 * text indexed and in every query, so `yasiyor` finds `yaşıyor`.
 *
 * @module
 */

/** Words too common to tell memories apart, in English and Turkish (folded). */
const STOP = new Set(
  (
    "a an and are as at be but by do does for from had has have he her his how i if in is it " +
    "its me my no not of on or our she so than that the their them then there they this to " +
    "us was we were what when where which who why will with you your can could would should " +
    "about did am been just also please tell know remember " +
    "acaba ama ancak bana ben beni benim bir biraz bu buna bunu da daha de diye en gibi hem " +
    "hep her icin ile ise kadar ki mi mu musun nasil ne neden o olan olarak onu sen seni sey " +
    "siz sonra su ve veya ya yani"
  ).split(" "),
);

/** The most words a recall query keeps (the longest ones). */
const MAX_TERMS = 16;

/**
 * `text` as it is indexed: the dotless `ı` folded to `i` (the tokenizer folds the rest).
 *
 * @example
 * ```ts
 * import { indexText } from "./search_text.ts";
 * if (indexText("Iğdır'da yaşıyor") !== "Iğdir'da yaşiyor") throw new Error();
 * ```
 */
export function indexText(text: string): string {
  return text.replace(/ı/g, "i");
}

/**
 * The words of `text` worth searching for, folded: lower case, no accents, no stop
 * words, at least two letters, each once, the longest `MAX_TERMS`.
 *
 * @example
 * ```ts
 * import { queryWords } from "./search_text.ts";
 * if (queryWords("What does Ayşe's cat eat?").join() !== "ayse,cat,eat") throw new Error();
 * ```
 */
export function queryWords(text: string): string[] {
  const folded = indexText(text).replace(/İ/g, "i").toLowerCase().normalize("NFKD")
    .replace(/\p{M}/gu, "");
  const words: string[] = [];
  for (const match of folded.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (word.length < 2 || STOP.has(word) || words.includes(word)) continue;
    words.push(word);
  }
  if (words.length <= MAX_TERMS) return words;
  const longest = [...words].sort((a, b) => b.length - a.length).slice(0, MAX_TERMS);
  return words.filter((w) => longest.includes(w));
}

/** One word of a query on the word index: its FTS5 form, and how many memories hold it. */
export interface QueryTerm {
  /** The folded word. */
  word: string;
  /** `"word"`, or `"word"*` from four letters on (Turkish adds its endings: `kedi` finds `kedisi`). */
  expr: string;
}

/**
 * The terms of `text` for the word index.
 *
 * @example
 * ```ts
 * import { wordTerms } from "./search_text.ts";
 * const terms = wordTerms("kedi ve süt");
 * if (terms.map((t) => t.expr).join(" ") !== '"kedi"* "sut"') throw new Error();
 * ```
 */
export function wordTerms(text: string): QueryTerm[] {
  return queryWords(text).map((word) => ({
    word,
    expr: word.length >= 4 ? `"${word}"*` : `"${word}"`,
  }));
}

/** A word held by more memories than this is common: alone it ranks too many to matter. */
export const COMMON_DOCS = 250;

/**
 * The FTS5 query for `terms` with the count of memories each is in (`df`): any rare
 * word, or any two common words together. A memory that holds one common word only
 * (a name that is in a tenth of them) would rank near the bottom anyway, and ranking
 * every such memory is what makes a search slow; when there is nothing else, that one
 * word is the query. Words no memory holds are left out; `undefined` when none is left.
 *
 * @example
 * ```ts
 * import { prunedQuery } from "./search_text.ts";
 * const q = prunedQuery([
 *   { word: "pamuk", expr: '"pamuk"*', df: 12 },
 *   { word: "ayse", expr: '"ayse"*', df: 900 },
 *   { word: "garden", expr: '"garden"*', df: 700 },
 *   { word: "said", expr: '"said"*', df: 0 },
 * ]);
 * if (q !== '"pamuk"* OR ("ayse"* AND "garden"*)') throw new Error(q);
 * ```
 */
export function prunedQuery(terms: readonly (QueryTerm & { df: number })[]): string | undefined {
  const held = terms.filter((t) => t.df > 0);
  if (held.length === 0) return undefined;
  const rare = held.filter((t) => t.df <= COMMON_DOCS).map((t) => t.expr);
  const common = held.filter((t) => t.df > COMMON_DOCS).map((t) => t.expr);
  const pairs: string[] = [];
  for (let i = 0; i < common.length; i++) {
    for (let j = i + 1; j < common.length; j++) pairs.push(`(${common[i]} AND ${common[j]})`);
  }
  const parts = [...rare, ...pairs];
  if (parts.length === 0) return common.join(" OR ");
  return parts.join(" OR ");
}

/**
 * An FTS5 query on the trigram index: `mode` `any` (recall, where the word index found
 * too little) or `all` (a person's search: every piece must be in the text). Pieces
 * under three characters cannot be looked up there; `undefined` when none is left.
 *
 * @example
 * ```ts
 * import { trigramQuery } from "./search_text.ts";
 * if (trigramQuery("Pamuk ked", "all") !== '"pamuk" AND "ked"') throw new Error();
 * ```
 */
export function trigramQuery(text: string, mode: "any" | "all"): string | undefined {
  const pieces = indexText(text).toLowerCase().split(/[^\p{L}\p{N}]+/u)
    .filter((p) => [...p].length >= 3);
  if (pieces.length === 0) return undefined;
  const unique = [...new Set(pieces)].slice(0, MAX_TERMS);
  return unique.map((p) => `"${p}"`).join(mode === "all" ? " AND " : " OR ");
}
