/**
 * The transcript as rows of the terminal, laid out once: each entry is laid out when it
 * first shows (and again only when the width changes), a streaming answer one finished
 * line at a time ({@linkcode MarkdownStream}), and a frame gathers rows from the bottom
 * only as far as the screen (and its scroll) reaches. A 20,000-word answer costs a
 * frame what a short one does.
 *
 * @module
 */
import { markdownLines, MarkdownStream, type StyledLine } from "@agent/hub/base";
import type { Entry, TuiState } from "./controller.ts";
import { wrap } from "./layout.ts";

/** A row of the transcript: styled spans, and the colour of the whole row. */
export interface TranscriptRow {
  spans: StyledLine;
  color: string | undefined;
}

/** A row with a key that stays with it while the view scrolls. */
export interface KeyedRow extends TranscriptRow {
  key: string;
}

const COLORS: Record<Entry["kind"], string | undefined> = {
  user: "cyan",
  assistant: undefined,
  system: "gray",
  error: "red",
};

const BLANK: TranscriptRow = { spans: [], color: undefined };

/** The rows of one entry at `width`: an answer as Markdown, the rest as plain text. */
export function entryRows(entry: Entry, width: number): TranscriptRow[] {
  const color = COLORS[entry.kind];
  if (entry.kind === "assistant") {
    return markdownLines(entry.text, width).map((spans) => ({ spans, color }));
  }
  const prefix = entry.kind === "user" ? "› " : "";
  return wrap(prefix + entry.text, width).map((text) => ({
    spans: text === "" ? [] : [{ text }],
    color,
  }));
}

/** The last rows of a transcript, laid out once and kept. */
export class TranscriptLayout {
  #entries = new WeakMap<Entry, { width: number; rows: TranscriptRow[] }>();
  /** The streaming answer's layout: how much of its text it has, and that text's end. */
  #stream: { width: number; seen: number; end: string; stream: MarkdownStream } | undefined;

  /**
   * The last `need` rows (or all there are) of `state`'s transcript at `width`: the
   * entries, the streaming answer, the lines queued behind it (`queued` words them).
   */
  tail(
    state: Pick<TuiState, "entries" | "streaming" | "queued">,
    width: number,
    need: number,
    queued: (text: string) => string,
  ): { rows: KeyedRow[]; total: number } {
    const rows: KeyedRow[] = [];
    // Gathered bottom up, then turned over. A row's key stays with its text as the view
    // scrolls, so the screen redraws only the rows that changed.
    const push = (list: readonly TranscriptRow[], key: string) => {
      for (let i = list.length - 1; i >= 0 && rows.length < need; i--) {
        rows.push({ ...list[i]!, key: `${key}.${i}` });
      }
    };
    for (let i = state.queued.length - 1; i >= 0 && rows.length < need; i--) {
      push(
        wrap(queued(state.queued[i]!), width).map((text) => ({ spans: [{ text }], color: "gray" })),
        `q${i}`,
      );
    }
    if (state.streaming !== undefined && rows.length < need) {
      const stream = this.#streaming(state.streaming, width);
      const open = stream.openLines();
      push(
        open.length === 0 && stream.finishedCount === 0
          ? [{ spans: [{ text: "…" }], color: undefined }]
          : open.map((spans) => ({ spans, color: undefined })),
        `o${stream.finishedCount}`,
      );
      const finished = stream.finished;
      for (let i = finished.length - 1; i >= 0 && rows.length < need; i--) {
        rows.push({ spans: finished[i]!, color: undefined, key: `s${i}` });
      }
      if (rows.length < need && state.entries.length > 0) rows.push({ ...BLANK, key: "sb" });
    }
    const entries = state.entries;
    for (let i = entries.length - 1; i >= 0 && rows.length < need; i--) {
      const entry = entries[i]!;
      push(this.#rows(entry, width), `e${i}`);
      // A blank line between exchanges, none between the lines of one answer to a command.
      if (i > 0 && (entry.kind === "user" || entries[i - 1]!.kind !== entry.kind)) {
        push([BLANK], `b${i}`);
      }
    }
    rows.reverse();
    return { rows, total: rows.length };
  }

  #rows(entry: Entry, width: number): TranscriptRow[] {
    const kept = this.#entries.get(entry);
    if (kept !== undefined && kept.width === width) return kept.rows;
    const rows = entryRows(entry, width);
    this.#entries.set(entry, { width, rows });
    return rows;
  }

  /** The streaming answer's layout, fed only what was added since the last frame. */
  #streaming(text: string, width: number): MarkdownStream {
    const kept = this.#stream;
    const seen = kept?.seen ?? 0;
    // The same answer grown (its last characters still where they were), at the same width.
    const same = kept !== undefined && kept.width === width && text.length >= seen &&
      text.slice(Math.max(0, seen - 64), seen) === kept.end;
    if (!same) {
      const stream = new MarkdownStream(width);
      stream.append(text);
      this.#stream = { width, seen: text.length, end: text.slice(-64), stream };
      return stream;
    }
    if (text.length > seen) kept.stream.append(text.slice(seen));
    kept.seen = text.length;
    kept.end = text.slice(-64);
    return kept.stream;
  }
}
