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

/**
 * An FTS5 query for the words of `text` on the word index: any of them, each also as a
 * prefix from four letters on (Turkish adds its endings: `kedi` finds `kedisi`);
 * `undefined` when no word is left.
 *
 * @example
 * ```ts
 * import { wordQuery } from "./search_text.ts";
 * if (wordQuery("kedi ve süt") !== '"kedi"* OR "sut"') throw new Error();
 * ```
 */
export function wordQuery(text: string): string | undefined {
  const words = queryWords(text);
  if (words.length === 0) return undefined;
  return words.map((w) => (w.length >= 4 ? `"${w}"*` : `"${w}"`)).join(" OR ");
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
