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
 * split is closed at the end of its part and opened again in the next; so are the
 * bold, italics and code span a split inside a long line cuts.
 *
 * A chat answer is rendered as it streams ({@linkcode markdownHtmlPart}, one part at a
 * time with the parts before it): every edit is well formed whatever the text so far
 * ends in. An open fence shows as code up to where the text stops; the marks the last,
 * unfinished line opened (`**`, `*`, `_`, a code span) are closed at its end, so a
 * person reads "**Not" as a bold "Not" at once instead of raw stars that turn bold a
 * second later. A mark the reader would not close that way stays as typed.
 *
 * @module
 */
import { blockOf, inline, type Span } from "../../terminal/markdown.ts";
import { escapeHtml, splitParts } from "./telegram.ts";

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
  /**
   * The marks (`**`, `*`, `_`, a code span's ticks) open where a split cut a line, in
   * the order they opened: the next part opens them again before its first line.
   */
  carry: string;
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
  const state: FenceState = { fence: undefined, lang: "", carry: "" };
  return splitParts(text).map(({ text: part, cutsLine }) => {
    const html = renderPart(part, state, cutsLine);
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
  return renderPart(text, { fence: undefined, lang: "", carry: "" });
}

/** Where a part sits in the text it was split from. */
export interface PartPlace {
  /** The parts before it (their source text), in order. */
  before: readonly string[];
  /** The text may still grow past this part (the last part of a streamed answer). */
  open: boolean;
  /**
   * For each part before this one and for this one, in order: whether the cut after it
   * fell inside a line ({@linkcode splitParts}). @default none did
   */
  cutsLine?: readonly boolean[];
}

/**
 * One part of a text split by {@linkcode splitMessage} as Telegram HTML: a fence left
 * open by the parts `before` it is opened again, one left open at its end is closed,
 * and when the part is `open` (streaming) the marks its last line opened are closed.
 * A part of marks only goes as typed (Telegram refuses an empty text).
 *
 * @example
 * ```ts
 * import { markdownHtmlPart } from "./markdown_html.ts";
 * const html = markdownHtmlPart("so **far", { before: [], open: true });
 * if (html !== "so <b>far</b>") throw new Error(html);
 * const next = markdownHtmlPart("x < 1\n~~~", { before: ["~~~js\nlet x = 0;"], open: false });
 * if (next !== '<pre><code class="language-js">x &lt; 1</code></pre>') throw new Error(next);
 * ```
 */
export function markdownHtmlPart(part: string, place: PartPlace): string {
  const state: FenceState = { fence: undefined, lang: "", carry: "" };
  for (const [i, earlier] of place.before.entries()) {
    renderPart(earlier, state, place.cutsLine?.[i] === true);
  }
  const cuts = place.cutsLine?.[place.before.length] === true;
  const html = renderPart(part, state, place.open || cuts);
  return plainOfHtml(html).trim() === "" ? escapeHtml(part) : html;
}

/**
 * What a person sees of a part as plain text (tags left out, entities read): what is
 * sent when Telegram refuses the part's HTML.
 */
export function plainOfHtml(html: string): string {
  return html.replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}

/**
 * `text` with a fence it leaves open closed on a line of its own, so what is written
 * after it (a notice, "cancelled") shows as text, not as code.
 *
 * @example
 * ```ts
 * import { closeFence } from "./markdown_html.ts";
 * if (closeFence("~~~\nls") !== "~~~\nls\n~~~") throw new Error();
 * if (closeFence("no fence") !== "no fence") throw new Error();
 * ```
 */
export function closeFence(text: string): string {
  const state: FenceState = { fence: undefined, lang: "", carry: "" };
  for (const line of text.split("\n")) fenceStep(line, state);
  return state.fence === undefined ? text : `${text}\n${state.fence}`;
}

/**
 * What `line` does to the fence state: `"close"` (it ends the open fence), `"open"`
 * (it starts one; the state holds its marker and language), `"code"` (a line inside
 * one) or `undefined` (not in a fence).
 */
function fenceStep(line: string, state: FenceState): "open" | "close" | "code" | undefined {
  const fence = FENCE.exec(line);
  if (state.fence !== undefined) {
    if (fence !== null && fence[1]!.startsWith(state.fence) && fence[2]!.trim() === "") {
      state.fence = undefined;
      state.lang = "";
      return "close";
    }
    return "code";
  }
  if (fence !== null && !(fence[1]!.startsWith("`") && fence[2]!.includes("`"))) {
    state.fence = fence[1]!;
    // Only a plain word names a language (it goes into an attribute).
    const lang = fence[2]!.trim();
    state.lang = /^[\w+#.-]{1,30}$/.test(lang) ? lang : "";
    return "open";
  }
  return undefined;
}

/**
 * A part as HTML; `unfinished`: its last line goes on (in the text still streaming, or
 * in the next part), so the marks it opened are closed at its end and kept in
 * `state.carry` for the next part.
 */
function renderPart(part: string, state: FenceState, unfinished = false): string {
  const out: string[] = [];
  /** The lines of the open `<pre>` (with its fence's language) or `<blockquote>`. */
  let open: { kind: "pre" | "quote"; lines: string[]; lang?: string } | undefined;
  const close = () => {
    if (open === undefined) return;
    if (open.lines.length === 0) {
      // Nothing inside (a fence closed at once): no empty tag.
    } else if (open.kind === "pre") {
      const code = !open.lang
        ? `<pre>${open.lines.join("\n")}</pre>`
        : `<pre><code class="language-${escapeHtml(open.lang)}">${
          open.lines.join("\n")
        }</code></pre>`;
      out.push(code);
    } else out.push(`<blockquote>${open.lines.join("\n")}</blockquote>`);
    open = undefined;
  };
  // A part that starts inside a fence (a split cut it) opens it again.
  if (state.fence !== undefined) open = { kind: "pre", lines: [], lang: state.lang };
  const lines = part.split("\n");
  // The marks a cut inside the line before left open are opened again.
  const reopen = state.carry;
  state.carry = "";
  for (const [at, source] of lines.entries()) {
    const step = fenceStep(source, state);
    const line = at === 0 && step === undefined ? reopen + source : source;
    if (step === "code") {
      open!.lines.push(escapeHtml(line.replace(/\t/g, "    ")));
      continue;
    }
    if (step === "close") {
      close();
      continue;
    }
    if (step === "open") {
      close();
      open = { kind: "pre", lines: [], lang: state.lang };
      continue;
    }
    const last = unfinished && at === lines.length - 1;
    const quote = QUOTE.exec(line);
    if (quote !== null) {
      if (open?.kind !== "quote") {
        close();
        open = { kind: "quote", lines: [] };
      }
      const text = last ? closeMarks(quote[1]!, state) : quote[1]!;
      open.lines.push(spansHtml(inline(text)));
      continue;
    }
    close();
    if (RULE.test(line)) {
      out.push("─".repeat(Math.min(RULE_MAX, Math.max(3, line.trim().length))));
      continue;
    }
    const block = blockOf(line);
    const text = last ? closeMarks(block.text, state) : block.text;
    out.push(escapeHtml(block.first) + spansHtml(inline(text, block.style)));
  }
  // The part ends inside a fence: closed here, opened again in the next part.
  close();
  return out.join("\n");
}

const ESCAPED = /[\\`*_[\]()<>#~-]/;

/**
 * The unfinished last line of a streamed answer with the marks it opened closed at
 * its end (`**bold` as `**bold**`, `` `code `` as `` `code` ``), when the reader then
 * reads every one of them as a mark; otherwise the line as it is (its marks stay as
 * typed until their twins arrive).
 *
 * @example
 * ```ts
 * import { closeOpenMarks } from "./markdown_html.ts";
 * if (closeOpenMarks("a **b *c") !== "a **b *c***") throw new Error();
 * if (closeOpenMarks("2 * 3") !== "2 * 3") throw new Error();
 * ```
 */
export function closeOpenMarks(line: string): string {
  const closing = marksClosing(line);
  return closing === undefined ? line : closing.text + closing.suffix;
}

/** `line` with its open marks closed; the marks, in opening order, kept in `state.carry`. */
function closeMarks(line: string, state: FenceState): string {
  const closing = marksClosing(line);
  if (closing === undefined) return line;
  state.carry = [...closing.suffix].reverse().join("");
  return closing.text + closing.suffix;
}

/**
 * What closes the marks `line` leaves open: the line (less a half closing twin) and
 * the marks to add, innermost first; `undefined` when none is open or the reader would
 * not read them all as marks.
 */
function marksClosing(line: string): { text: string; suffix: string } | undefined {
  let text = line.trimEnd();
  const marks: string[] = [];
  let code = "";
  for (let i = 0; i < text.length;) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length && ESCAPED.test(text[i + 1]!)) {
      i += 2;
      continue;
    }
    if (ch === "`") {
      const ticks = /^`+/.exec(text.slice(i))![0];
      const end = text.indexOf(ticks, i + ticks.length);
      // A code span that has not closed yet runs to the end: what follows is code.
      if (end < 0) {
        code = ticks;
        break;
      }
      i = end + ticks.length;
      continue;
    }
    if (ch === "*" || ch === "_") {
      const mark = text.startsWith(ch + ch, i) ? ch + ch : ch;
      const before = i === 0 ? " " : text[i - 1]!;
      const after = text[i + mark.length] ?? " ";
      if (marks.at(-1) === mark && before.trim() !== "") marks.pop();
      else if (after.trim() !== "" && (ch === "*" || !/\w/.test(before))) marks.push(mark);
      i += mark.length;
      continue;
    }
    i++;
  }
  if (marks.length === 0 && code === "") return undefined;
  // Half a closing twin typed (`**bold*`): it is the mark's, not text.
  const top = marks.at(-1);
  if (code === "" && top?.length === 2 && text.endsWith(top[0]!) && !text.endsWith(top)) {
    text = text.slice(0, -1);
  }
  const suffix = code + marks.reverse().join("");
  const dropped = line.trimEnd().length - text.length;
  // Each mark read as one: the line shows its openers' characters (as long as the
  // suffix) and the dropped half twin less, and nothing of the suffix.
  return shownLength(text + suffix) === shownLength(line.trimEnd()) - dropped - suffix.length
    ? { text, suffix }
    : undefined;
}

/** How many characters the reader shows of a line's inline text. */
function shownLength(text: string): number {
  return inline(text).reduce((n, span) => n + span.text.length, 0);
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
