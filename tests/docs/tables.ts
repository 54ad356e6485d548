/**
 * The table check of the documentation: every row of a Markdown table has as many
 * cells as its header, and no cell leaves a code span open. A `|` inside a cell, even
 * inside code (`init|deploy`), is a cell border unless escaped (`\|`): it splits the
 * cell, and GitHub drops the row's extra cells without a word; the half of the code
 * span left in the cell shows as a stray backtick. This finds both.
 *
 * @module
 */
import { blankCodeSpans, proseLines } from "./_markdown.ts";

const DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** The cells of one table row: split at each `|` not escaped with a backslash. */
export function tableCells(row: string): string[] {
  let text = row.trim();
  if (text.startsWith("|")) text = text.slice(1);
  if (text.endsWith("|") && !text.endsWith("\\|")) text = text.slice(0, -1);
  const cells: string[] = [];
  let cell = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length) {
      cell += ch + text[i + 1];
      i++;
    } else if (ch === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

/**
 * Checks every table of `markdown` (outside code blocks): one line per row whose cell
 * count differs from its header's or with a cell whose code span is not closed,
 * `line: why`; empty when every table is whole.
 *
 * @example
 * ```ts
 * import { checkTables } from "./tables.ts";
 * const problems = checkTables("| a | b |\n| - | - |\n| `x|y` | z |\n");
 * if (problems.length !== 2) throw new Error(problems.join());
 * ```
 */
export function checkTables(markdown: string): string[] {
  const lines = proseLines(markdown);
  const problems: string[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const header = lines[i]!;
    const delimiter = lines[i + 1]!;
    if (
      !header.text.includes("|") || !DELIMITER.test(delimiter.text) ||
      delimiter.line !== header.line + 1
    ) continue;
    const width = tableCells(header.text).length;
    const rows = [delimiter];
    let j = i + 2;
    while (
      j < lines.length && lines[j]!.line === lines[j - 1]!.line + 1 &&
      lines[j]!.text.trim() !== "" && lines[j]!.text.includes("|")
    ) rows.push(lines[j++]!);
    for (const row of [header, ...rows]) {
      const cells = tableCells(row.text);
      if (cells.length !== width) {
        problems.push(
          `${row.line}: a table row has ${cells.length} cells, its header ${width} ` +
            "(a '|' inside a cell needs a backslash: '\\|')",
        );
      }
      const open = cells.findIndex((cell) => /(?<!\\)`/.test(blankCodeSpans(cell)));
      if (open !== -1) {
        problems.push(
          `${row.line}: cell ${open + 1} of a table row leaves a code span open ` +
            "(a '|' inside code needs a backslash: '\\|')",
        );
      }
    }
    i = j - 1;
  }
  return problems;
}
