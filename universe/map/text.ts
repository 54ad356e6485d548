/**
 * How the map shows text, shared by the server and the page: names on one line with
 * control characters as spaces, long ones ellipsised, counts with the right word in
 * English and Turkish, times as DD.MM.YYYY HH:MM in Europe/Istanbul, and the folding
 * search uses (case and diacritics, so `ozlem` finds `Özlem`).
 *
 * @module
 */

/** A page's language. */
export type MapLang = "en" | "tr";

// The page's copy of the protocol's rule (`cleanText` in net/text.ts: the page is
// bundled for browsers and cannot import it); a test checks that the two agree.
// deno-lint-ignore no-control-regex
const CONTROLS = /[\u0000-\u001F\u007F-\u009F\u115F\u1160\u3164\uFFA0\u2800]/g;
const INVISIBLE =
  /[\u00AD\u034F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/**
 * `text` on one line: control and blank-looking characters become spaces (so words
 * never glue together), bidi, zero-width and other invisible marks go, runs of space
 * become one.
 *
 * @example
 * ```ts
 * import { lineOf } from "./text.ts";
 * if (lineOf("Ada\nLovelace\u202e") !== "Ada Lovelace") throw new Error();
 * if (lineOf("Ada\u061c\u200b") !== "Ada") throw new Error();
 * ```
 */
export function lineOf(text: string): string {
  return text.replace(CONTROLS, " ").replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
}

/** `text` cut to `max` code points, ending in `…` when cut. */
export function ellipsis(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/**
 * `text` folded for search: lower case, diacritics and Turkish dotless/dotted i folded.
 *
 * @example
 * ```ts
 * import { foldText } from "./text.ts";
 * if (foldText("Özlem IŞIK") !== "ozlem isik") throw new Error(foldText("Özlem IŞIK"));
 * ```
 */
export function foldText(text: string): string {
  return lineOf(text).replace(/[İIı]/g, "i").toLowerCase().normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "").replace(/[ßøæœđł]/g, (c) => FOLD[c] ?? c);
}

const FOLD: Record<string, string> = {
  "ß": "ss",
  "ø": "o",
  "æ": "ae",
  "œ": "oe",
  "đ": "d",
  "ł": "l",
};

const WORDS = {
  en: {
    agent: ["agent", "agents"],
    message: ["message", "messages"],
    link: ["link", "links"],
    online: ["online", "online"],
  },
  // Turkish keeps the singular after a number: "3 mesaj".
  tr: {
    agent: ["ajan", "ajan"],
    message: ["mesaj", "mesaj"],
    link: ["bağlantı", "bağlantı"],
    online: ["çevrimiçi", "çevrimiçi"],
  },
} as const;

/** A counted word. */
export type CountWord = keyof typeof WORDS.en;

/**
 * `n` and its word in `lang`, with digits grouped.
 *
 * @example
 * ```ts
 * import { counted } from "./text.ts";
 * if (counted("en", 1, "message") !== "1 message") throw new Error();
 * if (counted("tr", 1200, "message") !== "1.200 mesaj") throw new Error(counted("tr", 1200, "message"));
 * ```
 */
export function counted(lang: MapLang, n: number, word: CountWord): string {
  const forms = WORDS[lang][word];
  const digits = n.toLocaleString(lang === "tr" ? "tr-TR" : "en-GB");
  return `${digits} ${n === 1 ? forms[0] : forms[1]}`;
}

/**
 * Unix seconds as `DD.MM.YYYY HH:MM` in Europe/Istanbul.
 *
 * @example
 * ```ts
 * import { istanbulTime } from "./text.ts";
 * if (istanbulTime(0) !== "01.01.1970 02:00") throw new Error(istanbulTime(0));
 * ```
 */
export function istanbulTime(seconds: number): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Istanbul",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(seconds * 1000));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("day")}.${get("month")}.${get("year")} ${get("hour")}:${get("minute")}`;
}

/** `decodeURIComponent`, or the text as it is when its escapes are malformed. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `template` with each `{name}` replaced by `values[name]`.
 *
 * @example
 * ```ts
 * import { fill } from "./text.ts";
 * if (fill("{min} to {max}", { min: "1", max: "9" }) !== "1 to 9") throw new Error();
 * ```
 */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);
}

/**
 * `n` short enough for a dot's label: whole below 10,000, then thousands with one
 * decimal below 100,000 (`12.5k`; Turkish `12,5 B`), as the page's language writes them.
 *
 * @example
 * ```ts
 * import { shortCount } from "./text.ts";
 * if (shortCount("en", 2431) !== "2,431") throw new Error(shortCount("en", 2431));
 * if (shortCount("en", 12_480) !== "12.5k") throw new Error(shortCount("en", 12_480));
 * if (shortCount("tr", 12_480) !== "12,5 B") throw new Error(shortCount("tr", 12_480));
 * ```
 */
export function shortCount(lang: MapLang, n: number): string {
  const locale = lang === "tr" ? "tr-TR" : "en-GB";
  if (n < 10_000) return n.toLocaleString(locale);
  const k = (n / 1000).toLocaleString(locale, { maximumFractionDigits: n < 100_000 ? 1 : 0 });
  return lang === "tr" ? `${k} B` : `${k}k`;
}

/**
 * The zoom factor (the camera's ratio inverted) as the legend writes it: one decimal
 * below 10.
 *
 * @example
 * ```ts
 * import { zoomFactor } from "./text.ts";
 * if (zoomFactor("en", 1) !== "1") throw new Error();
 * if (zoomFactor("tr", 1 / 2.5) !== "2,5") throw new Error(zoomFactor("tr", 0.4));
 * if (zoomFactor("en", 1 / 16.4) !== "16") throw new Error();
 * ```
 */
export function zoomFactor(lang: MapLang, ratio: number): string {
  const zoom = 1 / ratio;
  return zoom.toLocaleString(lang === "tr" ? "tr-TR" : "en-GB", {
    maximumFractionDigits: zoom < 10 ? 1 : 0,
  });
}
