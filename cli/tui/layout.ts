/**
 * The TUI's layout arithmetic, free of React: wrapping text to the terminal's width,
 * and a status bar that drops its least important segments rather than wrap.
 *
 * @module
 */

import { displayWidth } from "@agent/hub/base";

/**
 * Wraps `text` to lines of at most `width` columns, at spaces where it can, keeping
 * its own line breaks.
 *
 * @example
 * ```ts
 * import { wrap } from "./layout.ts";
 * if (wrap("aaa bbb ccc", 7).join("|") !== "aaa bbb|ccc") throw new Error();
 * ```
 */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  const max = Math.max(1, width);
  for (const paragraph of text.split("\n")) {
    let line = "";
    let lineWidth = 0;
    for (const word of paragraph.split(/(?<= )/)) {
      const w = displayWidth(word);
      // A trailing space may hang past the edge.
      if (lineWidth + displayWidth(word.trimEnd()) <= max) {
        line += word;
        lineWidth += w;
        continue;
      }
      if (line.trimEnd() !== "") out.push(line.trimEnd());
      line = "";
      lineWidth = 0;
      // A word longer than the line is cut.
      for (const ch of word) {
        const cw = displayWidth(ch);
        if (lineWidth + cw > max) {
          out.push(line);
          line = "";
          lineWidth = 0;
        }
        line += ch;
        lineWidth += cw;
      }
    }
    out.push(line.trimEnd());
  }
  return out;
}

/** A status bar segment and how much it matters (lower goes first when space is short). */
export interface Segment {
  text: string;
  priority: number;
}

/**
 * The segments that fit `width` joined by ` · `, in their order, dropping the lowest
 * priority first; the most important one is cut rather than dropped.
 *
 * @example
 * ```ts
 * import { fitSegments } from "./layout.ts";
 * const bar = fitSegments([{ text: "brain", priority: 9 }, { text: "hub: on", priority: 1 }], 10);
 * if (bar !== "brain") throw new Error(bar);
 * ```
 */
export function fitSegments(segments: readonly Segment[], width: number): string {
  let kept = [...segments];
  const join = (list: Segment[]) => list.map((s) => s.text).join(" · ");
  while (kept.length > 1 && displayWidth(join(kept)) > width) {
    const lowest = kept.reduce((a, b) => (b.priority < a.priority ? b : a));
    kept = kept.filter((s) => s !== lowest);
  }
  const text = join(kept);
  if (displayWidth(text) <= width) return text;
  let cut = "";
  for (const ch of text) {
    if (displayWidth(cut + ch) > Math.max(0, width - 1)) break;
    cut += ch;
  }
  return `${cut}…`;
}
