/**
 * What an owner event says, kept as a code and its parameters rather than as a sentence
 * in the hub's language, so each reader sees it in theirs: a dashboard switched to
 * Turkish on an English hub, the messenger, the TUI. The code names a catalogue (`book`)
 * and a key in it; dollar amounts stay numbers until read, and are then written with the
 * reader's separators and the digits their comparison needs.
 *
 * A writer builds the {@linkcode EventSaid}, keeps `text` (the sentence in the hub's
 * language, for readers that show only text and for old rows), and a reader calls
 * {@linkcode saidText} with the catalogues it knows; an event without `said`, or whose
 * code no catalogue knows, shows its `text` as it is.
 *
 * @module
 */
import type { Lang, Translator } from "../i18n.ts";
import { formatCount, formatUsdAll } from "../spend/usd_format.ts";

/** An owner event's sentence as a code and its parameters. */
export interface EventSaid {
  /** `<book>.<key>`: the catalogue and the sentence in it (`jobs.ceiling_day`). */
  code: string;
  /** Names and other text, as they are; numbers are counts, grouped as the reader groups. */
  vars?: Record<string, string | number>;
  /**
   * Dollar amounts, written `$…` in the reader's language, compared with each other
   * (one `$` whether the template writes `${name}` or `{name}`).
   */
  usd?: Record<string, number>;
  /** Words from the same catalogue (`span: "span_month"`), said in the reader's language. */
  words?: Record<string, string>;
  /** Clauses that are sentences of their own (a failure's detail), said the same way. */
  parts?: Record<string, EventSaid>;
}

/**
 * The catalogues a reader renders {@linkcode EventSaid} with, by book name. Each is a
 * module's translator; a stored code is checked against it when read (an unknown key
 * falls back to the event's `text`), so its key type is open here.
 */
// deno-lint-ignore no-explicit-any
export type EventBooks = Readonly<Record<string, Translator<any>>>;

/**
 * The sentence `said` reads as in `lang`, or `undefined` when no catalogue in `books`
 * knows its code.
 *
 * @example
 * ```ts
 * import { catalogue } from "../i18n.ts";
 * import { saidText } from "./said.ts";
 * const books = {
 *   jobs: catalogue({ paused: "{name} paused at {cap}." }, { paused: "{name}, {cap} sınırında duraklatıldı." }),
 * };
 * const said = { code: "jobs.paused", vars: { name: "news" }, usd: { cap: 0.014 } };
 * if (saidText("tr", said, books) !== "news, $0,014 sınırında duraklatıldı.") throw new Error();
 * if (saidText("en", said, books) !== "news paused at $0.014.") throw new Error();
 * ```
 */
export function saidText(lang: Lang, said: EventSaid, books: EventBooks): string | undefined {
  // A stored row is read back as it was written: its code may not be a string.
  if (typeof said.code !== "string") return undefined;
  const dot = said.code.indexOf(".");
  const book = dot > 0 ? books[said.code.slice(0, dot)] : undefined;
  if (book === undefined) return undefined;
  const key = said.code.slice(dot + 1);
  const vars: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(said.vars ?? {})) {
    vars[name] = typeof value === "number" ? formatCount(value, lang) : String(value);
  }
  for (const [name, word] of Object.entries(said.words ?? {})) vars[name] = book(lang, word);
  for (const [name, part] of Object.entries(said.parts ?? {})) {
    vars[name] = saidText(lang, part, books) ?? "";
  }
  const names = Object.keys(said.usd ?? {});
  const amounts = formatUsdAll(names.map((n) => Number(said.usd![n])), lang);
  // A mark in the amount's place first: some catalogues write `${spent}`, others `{usd}`.
  names.forEach((name, i) => vars[name] = `\uE000${i}\uE000`);
  const text = book(lang, key, vars);
  // A catalogue answers an unknown key with the key itself: not a sentence.
  if (text === key) return undefined;
  return text.replace(/\$?\uE000(\d+)\uE000/g, (_, i: string) => `$${amounts[Number(i)]}`);
}

/**
 * The sentence of an event in `lang`: its {@linkcode EventSaid} rendered when it has one
 * a catalogue knows, else its `text` as written.
 */
export function eventText(
  lang: Lang,
  event: { said?: EventSaid | undefined; text?: string },
  books: EventBooks,
): string {
  return (event.said === undefined ? undefined : saidText(lang, event.said, books)) ??
    event.text ?? "";
}
