/**
 * Markdown for a terminal, shared by `agent chat` and the TUI: an answer becomes lines
 * of styled spans (bold, italics, code spans, fenced code, lists, quotes, links as text
 * plus URL) wrapped at word boundaries to the terminal's width. Each channel paints the
 * spans its own way (ANSI codes in chat, Ink's `<Text>` in the TUI).
 *
 * Blocks are read a source line at a time and only a fence's state crosses lines, so a
 * streamed answer is laid out once per finished line ({@linkcode MarkdownStream});
 * inline marks that do not close on their line stay as typed.
 *
 * @module
 */
import { displayWidth } from "./width.ts";

/** How a span looks. */
export interface SpanStyle {
  bold?: boolean;
  italic?: boolean;
  /** A code span or a line of a fenced block. */
  code?: boolean;
  /** A link's URL, a quote's bar, a rule: shown dimmer. */
  dim?: boolean;
}

/** A run of text in one style. */
export interface Span extends SpanStyle {
  text: string;
}

/** One terminal line: spans whose widths add up to at most the width asked for. */
export type StyledLine = Span[];

/** What carries from one source line to the next. */
export interface BlockState {
  /** Inside a fenced code block, opened by this marker (``` or ~~~). */
  fence: string | undefined;
}

/** The state before the first line. */
export function startState(): BlockState {
  return { fence: undefined };
}

/**
 * Lays out `text` (Markdown) as styled lines of at most `width` columns.
 *
 * @example
 * ```ts
 * import { markdownLines, plainText } from "./markdown.ts";
 * const lines = markdownLines("Some **bold** and [docs](https://x.io)", 80);
 * if (plainText(lines[0]!) !== "Some bold and docs (https://x.io)") throw new Error();
 * if (lines[0]![1]!.bold !== true) throw new Error();
 * ```
 */
export function markdownLines(text: string, width: number): StyledLine[] {
  const state = startState();
  return text.split("\n").flatMap((line) => markdownLine(line, width, state));
}

/** The text of a styled line, without its styles. */
export function plainText(line: StyledLine): string {
  return line.map((span) => span.text).join("");
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;

/** Lays out one source line, updating `state` (a fence opens or closes). */
export function markdownLine(line: string, width: number, state: BlockState): StyledLine[] {
  const max = Math.max(4, width);
  const fence = FENCE.exec(line);
  if (state.fence !== undefined) {
    if (fence !== null && fence[1]!.startsWith(state.fence) && fence[2]!.trim() === "") {
      state.fence = undefined;
      return [];
    }
    return codeLines(line, max);
  }
  if (fence !== null && !(fence[1]!.startsWith("`") && fence[2]!.includes("`"))) {
    state.fence = fence[1]!;
    const lang = fence[2]!.trim();
    return lang === "" ? [] : [[{ text: lang, dim: true }]];
  }
  if (RULE.test(line)) return [[{ text: "─".repeat(Math.min(max, 40)), dim: true }]];
  const block = blockOf(line);
  return wrapSpans(inline(block.text, block.style), max, block.first, block.hang);
}

/** A line of text as a block: its text without the marker, its style and its indents. */
export interface Block {
  text: string;
  style: SpanStyle;
  /** What the first row starts with (a list item's bullet, a quote's bar). */
  first: string;
  /** What the rows after it start with. */
  hang: string;
}

/** The block a text line (not a fence, code or a rule) is: heading, quote, item, paragraph. */
export function blockOf(line: string): Block {
  const heading = HEADING.exec(line);
  if (heading !== null) return { text: heading[1]!, style: { bold: true }, first: "", hang: "" };
  const quote = QUOTE.exec(line);
  if (quote !== null) return { text: quote[1]!, style: { italic: true }, first: "│ ", hang: "│ " };
  const item = ITEM.exec(line);
  if (item !== null) {
    const indent = " ".repeat(Math.min(item[1]!.length, 8));
    const marker = /\d/.test(item[2]!) ? `${item[2]} ` : "• ";
    return {
      text: item[3]!,
      style: {},
      first: indent + marker,
      hang: indent + " ".repeat(displayWidth(marker)),
    };
  }
  return { text: line, style: {}, first: "", hang: "" };
}

/** Whether `line` is laid out as text (not inside a fence, not a fence or a rule). */
export function isTextLine(line: string, state: BlockState): boolean {
  return state.fence === undefined && !FENCE.test(line) && !RULE.test(line);
}

/** A fenced block's line: indented, in the code style, cut at the width (not at words). */
function codeLines(line: string, width: number): StyledLine[] {
  const text = `  ${line.replace(/\t/g, "    ")}`;
  const out: StyledLine[] = [];
  let row = "";
  let rowWidth = 0;
  for (const ch of text) {
    const w = displayWidth(ch);
    if (rowWidth + w > width) {
      out.push([{ text: row, code: true }]);
      row = "  ";
      rowWidth = 2;
    }
    row += ch;
    rowWidth += w;
  }
  out.push([{ text: row, code: true }]);
  return out;
}

/**
 * Inline marks: code spans, `**bold**`/`__bold__`, `*italics*`/`_italics_`, links
 * `[text](url)` (the URL follows in brackets) and `<https://...>`. A mark without its
 * closing twin stays as typed.
 */
export function inline(text: string, style: SpanStyle = {}): Span[] {
  const out: Span[] = [];
  let plain = "";
  const push = (span: Span) => {
    if (plain !== "") out.push({ ...style, text: plain });
    plain = "";
    if (span.text !== "") out.push(span);
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length && /[\\`*_[\]()<>#~-]/.test(text[i + 1]!)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === "`") {
      const ticks = /^`+/.exec(rest)![0];
      const end = text.indexOf(ticks, i + ticks.length);
      if (end > i) {
        push({ ...style, code: true, text: text.slice(i + ticks.length, end).trim() || " " });
        i = end + ticks.length;
        continue;
      }
      plain += ticks;
      i += ticks.length;
      continue;
    }
    if (ch === "*" || ch === "_") {
      const double = rest.startsWith(ch + ch);
      const mark = double ? ch + ch : ch;
      const before = i === 0 ? " " : text[i - 1]!;
      const after = text[i + mark.length] ?? " ";
      // `_` inside a word (snake_case) is not a mark; a mark is not followed by a space.
      const opens = after.trim() !== "" && (ch === "*" || !/\w/.test(before));
      if (opens) {
        const end = closing(text, mark, i + mark.length);
        if (end > 0) {
          const inner = text.slice(i + mark.length, end);
          push({ text: "" });
          out.push(
            ...inline(inner, double ? { ...style, bold: true } : { ...style, italic: true }),
          );
          i = end + mark.length;
          continue;
        }
      }
      plain += mark;
      i += mark.length;
      continue;
    }
    if (ch === "[") {
      const link = /^\[([^\]]+)\]\(\s*(\S+?)\s*\)/.exec(rest);
      if (link !== null) {
        push({ text: "" });
        out.push(...inline(link[1]!, style));
        if (link[2] !== link[1]) out.push({ ...style, text: ` (${link[2]})`, dim: true });
        i += link[0].length;
        continue;
      }
    }
    if (ch === "<") {
      const auto = /^<((?:https?|mailto):[^>\s]+)>/.exec(rest);
      if (auto !== null) {
        push({ ...style, text: auto[1]!, dim: true });
        i += auto[0].length;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  push({ text: "" });
  return out;
}

/** Where `mark` closes after `from` (not after a space, `_` not inside a word); -1 if not. */
function closing(text: string, mark: string, from: number): number {
  let at = text.indexOf(mark, from);
  while (at > from) {
    const before = text[at - 1]!;
    const after = text[at + mark.length] ?? " ";
    const doubled = mark.length === 1 && (after === mark || before === mark);
    if (before.trim() !== "" && !doubled && (mark[0] === "*" || !/\w/.test(after))) {
      // `***both***`: the bold closes at the run's end, the italics inside it.
      while (mark.length === 2 && text[at + 2] === mark[0]) at++;
      return at;
    }
    at = text.indexOf(mark, at + 1);
  }
  return -1;
}

/**
 * Wraps spans at spaces to `width` columns: the first line starts with `first`, the
 * ones after with `hang` (a list item's text lines up under its first word). A word
 * longer than a line is cut.
 */
export function wrapSpans(
  spans: readonly Span[],
  width: number,
  first: string,
  hang: string,
): StyledLine[] {
  const out: StyledLine[] = [];
  let line: Span[] = first === "" ? [] : [{ text: first }];
  let used = displayWidth(first);
  let pendingSpace: Span | undefined;
  let empty = true;
  const add = (span: Span) => {
    const last = line[line.length - 1];
    if (last !== undefined && sameStyle(last, span)) last.text += span.text;
    else line.push({ ...span });
  };
  const newLine = () => {
    out.push(line);
    line = hang === "" ? [] : [{ text: hang }];
    used = displayWidth(hang);
    pendingSpace = undefined;
    empty = true;
  };
  for (const span of spans) {
    for (const piece of span.text.split(/(\s+)/)) {
      if (piece === "") continue;
      if (/^\s+$/.test(piece)) {
        if (!empty) pendingSpace = { ...span, text: " " };
        continue;
      }
      // Consecutive spans with no space between them form one word.
      const w = displayWidth(piece);
      const space = pendingSpace === undefined ? 0 : 1;
      if (!empty && used + space + w > width) newLine();
      else if (pendingSpace !== undefined) {
        add(pendingSpace);
        used += 1;
      }
      pendingSpace = undefined;
      if (used + w <= width) {
        add({ ...span, text: piece });
        used += w;
        empty = false;
        continue;
      }
      // Longer than a whole line: cut.
      let cut = "";
      for (const ch of piece) {
        const cw = displayWidth(ch);
        if (used + cw > width && !(empty && cut === "")) {
          add({ ...span, text: cut });
          newLine();
          cut = "";
        }
        cut += ch;
        used += cw;
        empty = false;
      }
      if (cut !== "") add({ ...span, text: cut });
    }
  }
  out.push(line);
  return out;
}

function sameStyle(a: SpanStyle, b: SpanStyle): boolean {
  return !!a.bold === !!b.bold && !!a.italic === !!b.italic && !!a.code === !!b.code &&
    !!a.dim === !!b.dim;
}

/**
 * A streamed answer laid out as it grows: each finished source line once, the open
 * last line again on every {@linkcode lines} call. The cost of a new delta does not
 * grow with the answer before it.
 */
export class MarkdownStream {
  #width: number;
  #state = startState();
  #done: StyledLine[] = [];
  #open = "";
  #leading = true;

  /** A stream laid out at `width` columns. */
  constructor(width: number) {
    this.#width = width;
  }

  /** Adds streamed text; returns the lines it finished. */
  append(delta: string): StyledLine[] {
    // Leading blank space of an answer is not shown.
    if (this.#leading) {
      delta = delta.replace(/^\s+/, "");
      if (delta === "") return [];
      this.#leading = false;
    }
    const parts = (this.#open + delta).split("\n");
    this.#open = parts.pop()!;
    const finished = parts.flatMap((line) => markdownLine(line, this.#width, this.#state));
    this.#done.push(...finished);
    return finished;
  }

  /** The open (unfinished) line laid out, without changing the stream's state. */
  openLines(): StyledLine[] {
    if (this.#open === "") return [];
    return markdownLine(this.#open, this.#width, { ...this.#state });
  }

  /** Every line so far: the finished ones and the open one. */
  lines(): StyledLine[] {
    return [...this.#done, ...this.openLines()];
  }

  /** How many finished lines there are. */
  get finishedCount(): number {
    return this.#done.length;
  }

  /** The finished lines (shared, not copied: do not change them). */
  get finished(): readonly StyledLine[] {
    return this.#done;
  }
}
