/**
 * The rules a memory follows wherever it is stored (the hub's SQLite file, the spine's
 * D1 in cloud mode), shared so both stores decide alike: what a scope is, the kinds,
 * how long a text may be and which characters it may not hide, when two texts are the
 * same memory, how text is folded for the search index and how a person's words become
 * a query on it, and how recency weighs on a match. Web APIs only.
 *
 * @example
 * ```ts
 * import { isScope, prunedQuery, wordTerms } from "./memory.ts";
 * if (!isScope("person:ali@example.org")) throw new Error();
 * const q = prunedQuery(wordTerms("Ayşe's cat").map((t) => ({ ...t, df: 3 })));
 * if (q !== '"ayse"* OR "cat"') throw new Error(q);
 * ```
 *
 * @module
 */

/** A memory's scope: `owner`, `person:<id>` or `conversation:<key>`. */
export type MemoryScope = "owner" | `person:${string}` | `conversation:${string}`;

// An id or key: printable, no white space, at most 300 characters.
const SCOPE = /^(?:owner|person:[^\s\p{C}]{1,300}|conversation:[^\s\p{C}]{1,300})$/u;

/**
 * Whether `value` is a scope.
 *
 * @example
 * ```ts
 * import { isScope } from "./memory.ts";
 * if (!isScope("person:ali@example.org") || isScope("people:x") || isScope("person:")) {
 *   throw new Error();
 * }
 * ```
 */
export function isScope(value: string): value is MemoryScope {
  return SCOPE.test(value);
}

/** What a memory records. */
export type MemoryKindName = "fact" | "preference" | "event" | "instruction";

/** Every kind, in the order lists show them. */
export const MEMORY_KIND_NAMES: readonly MemoryKindName[] = [
  "fact",
  "preference",
  "event",
  "instruction",
];

/** The most characters a memory holds: a memory is a note, not a document. */
export const MAX_TEXT_CHARS = 1000;

// Format characters (zero-width, bidi controls, tags, soft hyphen, word joiner, BOM ...),
// controls but tab and newline, private use, line and paragraph separators, and letters
// that draw as blank space (Hangul fillers, the braille blank).
const HIDDEN =
  // deno-lint-ignore no-control-regex
  /[\p{Cf}\p{Co}\u2028\u2029\u115F\u1160\u3164\uFFA0\u2800]|[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, "gu");
// A zero-width joiner between two pictographs makes one emoji (a family, a profession).
const EMOJI_JOINER = /(\p{Extended_Pictographic}\p{M}*)\u200D(?=\p{Extended_Pictographic})/gu;

/**
 * The hidden characters of `text`, as `U+200B` codes (each once, in order); empty when
 * there is none. A joiner inside an emoji sequence is not hidden.
 *
 * @example
 * ```ts
 * import { hiddenCharacters } from "./memory.ts";
 * if (hiddenCharacters("tea\u200Bplease").join() !== "U+200B") throw new Error();
 * if (hiddenCharacters("👩\u200D💻 codes, Ayşe").length !== 0) throw new Error();
 * ```
 */
export function hiddenCharacters(text: string): string[] {
  const plain = text.replace(EMOJI_JOINER, "$1");
  if (!HIDDEN.test(plain)) return [];
  const seen = new Set<string>();
  for (const match of plain.matchAll(HIDDEN_ALL)) {
    seen.add(`U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`);
  }
  return [...seen];
}

/**
 * The text as duplicates are told apart: case, accents and spacing ignored.
 *
 * @example
 * ```ts
 * import { sameText } from "./memory.ts";
 * if (sameText("Likes  TEA.") !== sameText("likes tea")) throw new Error();
 * ```
 */
export function sameText(text: string): string {
  return text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "").replace(/[\s.!]+/g, " ")
    .trim();
}

/**
 * A short digest of {@linkcode sameText} (64-bit FNV-1a, as 16 hex digits), so a
 * duplicate is found by an index rather than by reading every memory of the scope, and
 * no second copy of the text is kept. Two texts with one digest are compared in full.
 *
 * @example
 * ```ts
 * import { sameKey } from "./memory.ts";
 * if (sameKey("Likes tea") !== sameKey("likes  TEA.") || sameKey("a").length !== 16) {
 *   throw new Error();
 * }
 * ```
 */
export function sameKey(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(sameText(text))) {
    hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

/** Recency: a match's score gains up to half again, halving every 30 days of the memory's age. */
export function recencyBoost(ageMs: number): number {
  return 1 + 0.5 * Math.pow(0.5, Math.max(0, ageMs) / (30 * 86_400_000));
}

/** Candidates a search reads from an index before recency reorders them. */
export const SEARCH_CANDIDATES = 60;

/**
 * The text as the search index holds it: the dotless `ı` folded to `i`. The index's
 * tokenizer (`unicode61 remove_diacritics 2`) folds accents (`ş` to `s`, `İ` to `i`) but
 * not `ı`, a letter of its own; folded here, in what is indexed and in every query,
 * `yasiyor` finds `yaşıyor`.
 *
 * @example
 * ```ts
 * import { indexText } from "./memory.ts";
 * if (indexText("Iğdır'da yaşıyor") !== "Iğdir'da yaşiyor") throw new Error();
 * ```
 */
export function indexText(text: string): string {
  return text.replace(/ı/g, "i");
}

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
 * The words of `text` worth searching for, folded: lower case, no accents, no stop
 * words, at least two letters, each once, the longest `MAX_TERMS`.
 *
 * @example
 * ```ts
 * import { queryWords } from "./memory.ts";
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
 * import { wordTerms } from "./memory.ts";
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
 * import { prunedQuery } from "./memory.ts";
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
 * import { trigramQuery } from "./memory.ts";
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
