/**
 * Markdown as Telegram's HTML style, so an answer shows bold, italics, code spans,
 * fenced code, lists, quotes and headings the way the model wrote them instead of its
 * raw marks. The inline marks and blocks are read by the terminal's Markdown reader
 * (`hub/terminal/markdown.ts`), so every channel agrees on what a mark is; only the
 * output differs: Telegram's tags (`<b>`, `<i>`, `<code>`, `<pre>`, `<blockquote>`)
 * around escaped text, every tag closed in the part it opened in.
 *
 * A long answer is split where the messenger splits every text ({@linkcode splitMessage}
 * on the source, which measures it escaped); what a part shows is never longer than
 * that measure, so a part stays within Telegram's 4,096 characters. A fence cut by a
 * split is closed at the end of its part and opened again in the next.
 *
 * @module
 */
import { blockOf, inline, type Span } from "../../terminal/markdown.ts";
import { escapeHtml, splitMessage } from "./telegram.ts";

const FENCE = /^\s{0,3}(`{3,}|~{3,})(.*)$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
/** A rule shows at most this many characters (never more than its source). */
const RULE_MAX = 20;

/** What carries from one line (and one part) to the next: an open fence. */
interface FenceState {
  /** The marker that opened the fence (``` or ~~~), when inside one. */
  fence: string | undefined;
  /** The fence's language, for the `<code class>` of a part that opens inside it. */
  lang: string;
}

/**
 * `text` (Markdown) as Telegram HTML, in the parts the messenger sends it in: each part
 * is well formed on its own and shows at most 4,096 characters.
 *
 * @example
 * ```ts
 * import { markdownHtmlParts } from "./markdown_html.ts";
 * const [html] = markdownHtmlParts("Some **bold** & `code`");
 * if (html !== "Some <b>bold</b> &amp; <code>code</code>") throw new Error(html);
 * ```
 */
export function markdownHtmlParts(text: string): string[] {
  const state: FenceState = { fence: undefined, lang: "" };
  return splitMessage(text).map((part) => {
    const html = renderPart(part, state);
    // A part of marks only (a lone fence) would show nothing: it goes as typed.
    return plainOfHtml(html).trim() === "" ? escapeHtml(part) : html;
  });
}

/**
 * One text (no split) as Telegram HTML; an open fence is closed at its end.
 *
 * @example
 * ```ts
 * import { markdownHtml } from "./markdown_html.ts";
 * const html = markdownHtml("- one\n- two");
 * if (html !== "• one\n• two") throw new Error(html);
 * ```
 */
export function markdownHtml(text: string): string {
  return renderPart(text, { fence: undefined, lang: "" });
}

/**
 * What a person sees of a part as plain text (tags left out, entities read): what is
 * sent when Telegram refuses the part's HTML.
 */
export function plainOfHtml(html: string): string {
  return html.replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}

function renderPart(part: string, state: FenceState): string {
  const out: string[] = [];
  /** The lines of the open `<pre>` or `<blockquote>`, with what closes it. */
  let open: { kind: "pre" | "quote"; lines: string[] } | undefined;
  const close = () => {
    if (open === undefined) return;
    if (open.lines.length === 0) {
      // Nothing inside (a fence closed at once): no empty tag.
    } else if (open.kind === "pre") {
      const code = state.lang === ""
        ? `<pre>${open.lines.join("\n")}</pre>`
        : `<pre><code class="language-${escapeHtml(state.lang)}">${
          open.lines.join("\n")
        }</code></pre>`;
      out.push(code);
    } else out.push(`<blockquote>${open.lines.join("\n")}</blockquote>`);
    open = undefined;
  };
  // A part that starts inside a fence (a split cut it) opens it again.
  if (state.fence !== undefined) open = { kind: "pre", lines: [] };
  for (const line of part.split("\n")) {
    const fence = FENCE.exec(line);
    if (state.fence !== undefined) {
      if (fence !== null && fence[1]!.startsWith(state.fence) && fence[2]!.trim() === "") {
        close();
        state.fence = undefined;
        state.lang = "";
      } else open!.lines.push(escapeHtml(line.replace(/\t/g, "    ")));
      continue;
    }
    if (fence !== null && !(fence[1]!.startsWith("`") && fence[2]!.includes("`"))) {
      close();
      state.fence = fence[1]!;
      // Only a plain word names a language (it goes into an attribute).
      const lang = fence[2]!.trim();
      state.lang = /^[\w+#.-]{1,30}$/.test(lang) ? lang : "";
      open = { kind: "pre", lines: [] };
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote !== null) {
      if (open?.kind !== "quote") {
        close();
        open = { kind: "quote", lines: [] };
      }
      open.lines.push(spansHtml(inline(quote[1]!)));
      continue;
    }
    close();
    if (RULE.test(line)) {
      out.push("─".repeat(Math.min(RULE_MAX, Math.max(3, line.trim().length))));
      continue;
    }
    const block = blockOf(line);
    out.push(escapeHtml(block.first) + spansHtml(inline(block.text, block.style)));
  }
  // The part ends inside a fence: closed here, opened again in the next part.
  close();
  return out.join("\n");
}

/** Styled spans as nested tags around escaped text. */
function spansHtml(spans: readonly Span[]): string {
  return spans.map((span) => {
    let html = escapeHtml(span.text);
    if (span.code) html = `<code>${html}</code>`;
    if (span.italic) html = `<i>${html}</i>`;
    if (span.bold) html = `<b>${html}</b>`;
    return html;
  }).join("");
}
