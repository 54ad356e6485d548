/**
 * How the loopback Bot API server reads a `parse_mode: "HTML"` text as Telegram does:
 * only Telegram's tags, every tag closed in order, `<`, `>` and `&` outside tags
 * written as entities; the length that counts against 4,096 is the text's length
 * after parsing (tags removed, entities one character each). It also answers the
 * message's entities as Telegram would list them (`bold`, `italic`, `code`, `pre` with
 * its `language`, `blockquote`, ...), with offsets and lengths in UTF-16 units of the
 * visible text.
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

/** One entity of a parsed text, as the Bot API lists a message's `entities`. */
export interface BotEntity {
  type: string;
  offset: number;
  length: number;
  language?: string;
  url?: string;
}

/** Telegram's entity type for each tag. */
const ENTITY: Record<string, string> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  a: "text_link",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
};

/**
 * The text's visible length and entities, or the description Telegram answers a
 * malformed text with.
 */
export function parseTelegramHtml(
  text: string,
): { length: number; entities: BotEntity[] } | { error: string } {
  const bytes = new TextEncoder();
  const open: string[] = [];
  const starts: { at: number; attrs: string }[] = [];
  const entities: BotEntity[] = [];
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
      const [whole, closing, nameRaw, attrs] = tag as unknown as [string, string, string, string];
      const name = nameRaw.toLowerCase();
      if (!TAGS.has(name)) {
        return fail(`Unsupported ${closing ? "end" : "start"} tag "${name}"`, i);
      }
      if (closing) {
        if (open.pop() !== name) return fail(`Unmatched end tag "${name}"`, i);
        const start = starts.pop()!;
        const entity = entityOf(name, start.attrs, open, start.at, length - start.at);
        if (entity !== undefined) entities.push(entity);
      } else {
        open.push(name);
        starts.push({ at: length, attrs: attrs ?? "" });
      }
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
  // A `<pre><code class="language-x">` is one `pre` entity with its language.
  for (const lang of entities.filter((e) => e.type === "pre_language")) {
    const pre = entities.find((e) =>
      e.type === "pre" && e.offset === lang.offset && e.length === lang.length
    );
    if (pre !== undefined) pre.language = lang.language!;
  }
  const listed = entities.filter((e) => e.type !== "pre_language");
  listed.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { length, entities: listed };
}

/** The entity a closed tag makes (none when empty; `<code>` in `<pre>` names its language). */
function entityOf(
  name: string,
  attrs: string,
  outer: readonly string[],
  offset: number,
  length: number,
): BotEntity | undefined {
  const type = ENTITY[name];
  if (type === undefined || length === 0) return undefined;
  if (name === "code" && outer.at(-1) === "pre") {
    // Telegram folds it into the `pre`, which takes its language: marked for the pre.
    const language = /class="language-([^"]+)"/.exec(attrs)?.[1];
    return language === undefined ? undefined : { type: "pre_language", offset, length, language };
  }
  const url = /href="([^"]*)"/.exec(attrs)?.[1];
  return { type, offset, length, ...(url === undefined ? {} : { url }) };
}

/** What a person sees of an HTML text: tags left out, entities read. */
export function visibleText(html: string): string {
  return html.replace(/<[^>]+>/g, "")
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}
