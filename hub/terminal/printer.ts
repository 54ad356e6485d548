/**
 * A streamed answer printed to a terminal that cannot take back what it printed (chat):
 * Markdown laid out row by row, each row printed once it is complete, wrapped at word
 * boundaries so the terminal never breaks a word. A long line is printed a row at a
 * time as it streams; the last, growing row waits for the line's end or for the rows
 * after it.
 *
 * @module
 */
import {
  blockOf,
  type BlockState,
  inline,
  isTextLine,
  markdownLine,
  plainText,
  type Span,
  type SpanStyle,
  startState,
  type StyledLine,
  wrapSpans,
} from "./markdown.ts";

/** How a styled row becomes terminal text: ANSI codes, or the text alone. */
export function paintRow(row: StyledLine, color: boolean): string {
  if (!color) return plainText(row).trimEnd();
  return row.map(paint).join("").replace(/\s+$/, "");
}

function paint(span: Span): string {
  const codes: number[] = [];
  if (span.bold) codes.push(1);
  if (span.dim) codes.push(2);
  if (span.italic) codes.push(3);
  if (span.code) codes.push(36);
  return codes.length === 0 ? span.text : `\x1b[${codes.join(";")}m${span.text}\x1b[0m`;
}

/** Options for {@linkcode MarkdownPrinter}. */
export interface MarkdownPrinterOptions {
  /** Columns of the terminal (read for each row: a resize takes effect). */
  columns(): number;
  /** Whether styles are painted with ANSI codes. @default false */
  color?: boolean;
  /** Receives finished rows, each ending with a line break. */
  write(text: string): void;
}

/** Prints one streamed answer as Markdown (see the module's doc). */
export class MarkdownPrinter {
  #o: MarkdownPrinterOptions;
  #state: BlockState = startState();
  /** The source line still open, less what was printed of it. */
  #open = "";
  /** The printed part of the open line ended on a whole row: the rest hangs under it. */
  #continued: { hang: string; style: SpanStyle } | undefined;
  #leading = true;

  /** A printer writing through `options.write`. */
  constructor(options: MarkdownPrinterOptions) {
    this.#o = options;
  }

  /** Whether anything was printed or waits to be. */
  get started(): boolean {
    return !this.#leading;
  }

  /** Adds streamed text; prints the rows it completed. */
  append(delta: string): void {
    if (this.#leading) {
      delta = delta.replace(/^\s+/, "");
      if (delta === "") return;
      this.#leading = false;
    }
    const parts = (this.#open + delta).split("\n");
    const open = parts.pop()!;
    for (const line of parts) {
      this.#print(this.#rows(line));
      this.#continued = undefined;
    }
    this.#open = open;
    this.#early();
  }

  /** The answer ended (or a tool call came): prints the open line. */
  end(): void {
    if (this.#open !== "") this.#print(this.#rows(this.#open));
    this.#open = "";
    this.#continued = undefined;
    this.#state = startState();
    this.#leading = true;
  }

  #width(): number {
    return Math.max(20, this.#o.columns() - 1);
  }

  #rows(line: string): StyledLine[] {
    if (this.#continued === undefined) return markdownLine(line, this.#width(), this.#state);
    const { hang, style } = this.#continued;
    return wrapSpans(inline(line.replace(/^\s+/, ""), style), this.#width(), hang, hang);
  }

  #print(rows: readonly StyledLine[]): void {
    for (const row of rows) this.#o.write(`${paintRow(row, this.#o.color ?? false)}\n`);
  }

  /**
   * Prints the rows of the open line that are complete (all but its last), when the
   * text they hold can be cut off at a word: what follows is laid out as their
   * continuation, so a word is never printed twice or lost.
   */
  #early(): void {
    const line = this.#open;
    if (this.#continued === undefined && !isTextLine(line, this.#state)) return;
    const rows = this.#rows(line);
    // Only the last row can still change as words come (the wrap is greedy).
    if (rows.length < 2) return;
    const done = rows.slice(0, -1);
    const block = this.#continued === undefined ? blockOf(line) : undefined;
    const hang = this.#continued?.hang ?? block!.hang;
    const first = this.#continued?.hang ?? block!.first;
    // The words the finished rows hold, found again in the source.
    const words = done.map((row, i) => plainText(row).slice((i === 0 ? first : hang).length))
      .join(" ").split(/\s+/).filter(Boolean).length;
    const source = this.#continued === undefined ? block!.text : line;
    const lead = this.#continued === undefined ? line.length - block!.text.length : 0;
    const cut = cutAfterWords(source, words);
    if (cut === undefined) return;
    const head = line.slice(0, lead + cut);
    const tail = line.slice(lead + cut);
    const again = this.#rows(head);
    if (again.map(plainText).join("\n") !== done.map(plainText).join("\n")) return;
    this.#print(done);
    this.#continued = { hang, style: block?.style ?? this.#continued!.style };
    this.#open = tail;
  }
}

/** Where the `count`-th word of `text` ends; `undefined` when there are not that many. */
function cutAfterWords(text: string, count: number): number | undefined {
  const re = /\S+/g;
  let match: RegExpExecArray | null = null;
  for (let i = 0; i < count; i++) {
    match = re.exec(text);
    if (match === null) return undefined;
  }
  return match === null ? undefined : match.index + match[0].length;
}
