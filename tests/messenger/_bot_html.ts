/**
 * How the loopback Bot API server reads a `parse_mode: "HTML"` text as Telegram does:
 * only Telegram's tags, every tag closed in order, `<`, `>` and `&` outside tags
 * written as entities; the length that counts against 4,096 is the text's length
 * after parsing (tags removed, entities one character each).
 *
 * @module
 */

/** The tags Telegram's HTML style takes. */
const TAGS = new Set([
  "b",
  "strong",
  "i",
  "em",
  "u",
  "ins",
  "s",
  "strike",
  "del",
  "span",
  "tg-spoiler",
  "a",
  "code",
  "pre",
  "blockquote",
  "tg-emoji",
]);

/** The text's visible length, or the description Telegram answers a malformed text with. */
export function parseTelegramHtml(text: string): { length: number } | { error: string } {
  const bytes = new TextEncoder();
  const open: string[] = [];
  let length = 0;
  const fail = (what: string, at: number) => ({
    error: `Bad Request: can't parse entities: ${what} at byte offset ${
      bytes.encode(text.slice(0, at)).length
    }`,
  });
  for (let i = 0; i < text.length;) {
    const ch = text[i]!;
    if (ch === "<") {
      const tag = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:\s+[A-Za-z-]+="[^"<>]*")*)\s*>/.exec(
        text.slice(i),
      );
      if (tag === null) return fail("Unexpected character '<' outside a tag", i);
      const [whole, closing, nameRaw] = tag as unknown as [string, string, string];
      const name = nameRaw.toLowerCase();
      if (!TAGS.has(name)) {
        return fail(`Unsupported ${closing ? "end" : "start"} tag "${name}"`, i);
      }
      if (closing) {
        if (open.pop() !== name) return fail(`Unmatched end tag "${name}"`, i);
      } else open.push(name);
      i += whole.length;
      continue;
    }
    if (ch === ">") return fail("Unexpected character '>' outside a tag", i);
    if (ch === "&") {
      const entity = /^&(?:lt|gt|amp|quot|#\d{1,7}|#x[0-9A-Fa-f]{1,6});/.exec(text.slice(i));
      if (entity === null) return fail("Unsupported HTML entity", i);
      length += 1;
      i += entity[0].length;
      continue;
    }
    length += 1;
    i += 1;
  }
  if (open.length > 0) {
    return {
      error: `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${
        open.at(-1)
      }"`,
    };
  }
  return { length };
}

/** What a person sees of an HTML text: tags left out, entities read. */
export function visibleText(html: string): string {
  return html.replace(/<[^>]+>/g, "")
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}
