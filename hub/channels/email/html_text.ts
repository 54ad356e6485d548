/**
 * An HTML-only mail's body as text for the model: what a mail program shows, without
 * the markup, scripts and styles, blocks and line breaks kept as new lines, character
 * references decoded. It never renders or runs anything; the text it gives is read as
 * any other mail text.
 *
 * @module
 */

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  laquo: "«",
  raquo: "»",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  copy: "©",
  reg: "®",
  euro: "€",
  bull: "•",
};

/** Character references (`&amp;`, `&#351;`, `&#x15F;`) decoded; unknown ones kept. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (all, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X"
        ? parseInt(ref.slice(2), 16)
        : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
        ? String.fromCodePoint(code)
        : all;
    }
    return NAMED[ref.toLowerCase()] ?? all;
  });
}

/**
 * HTML as plain text.
 *
 * @example
 * ```ts
 * import { htmlText } from "./html_text.ts";
 * const t = htmlText("<style>p{}</style><p>Merhaba&nbsp;<b>Ayşe</b>,</p><p>ne\n var?<br>&#351;</p>");
 * if (t !== "Merhaba Ayşe,\n\nne var?\nş") throw new Error(JSON.stringify(t));
 * ```
 */
export function htmlText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(script|style|head|title|template)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/\s+/g, " ")
    .replace(/<br\b[^>]*>/gi, "\n")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<\/?(p|div|h[1-6]|ul|ol|tr|table|blockquote|pre|hr|section|article)\b[^>]*>/gi, "\n")
    .replace(/<[^>]*>/g, "");
  return decodeEntities(text)
    .replace(/[ \t]*\n[ \t]*/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
