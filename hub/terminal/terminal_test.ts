import assert from "node:assert/strict";
import { inline, markdownLines, MarkdownStream, plainText, type StyledLine } from "./markdown.ts";
import { displayWidth } from "./width.ts";
import { toolOutcomeLine } from "./tool_outcome.ts";
import { MarkdownPrinter, paintRow } from "./printer.ts";

const text = (lines: StyledLine[]) => lines.map(plainText);

Deno.test("inline() reads bold, italics, code spans and links; unclosed marks stay", () => {
  assert.deepEqual(inline("a **b** _c_ `d` [e](https://f.io)"), [
    { text: "a " },
    { text: "b", bold: true },
    { text: " " },
    { text: "c", italic: true },
    { text: " " },
    { text: "d", code: true },
    { text: " " },
    { text: "e" },
    { text: " (https://f.io)", dim: true },
  ]);
  assert.equal(
    plainText(inline("2 * 3 * 4 and snake_case_name and **open")),
    "2 * 3 * 4 and snake_case_name and **open",
  );
  assert.deepEqual(inline("***both***"), [{ text: "both", bold: true, italic: true }]);
});

Deno.test("markdownLines() wraps at word boundaries, never inside a word", () => {
  const source = "The quick brown fox jumps over the lazy dog ".repeat(20);
  for (const width of [17, 23, 40, 79]) {
    const lines = text(markdownLines(source, width));
    for (const line of lines) assert.ok(displayWidth(line) <= width, line);
    const words = lines.join(" ").split(/\s+/).filter(Boolean);
    assert.deepEqual(words, source.trim().split(/\s+/));
  }
});

Deno.test("markdownLines() lays out fences, lists, headings, quotes and rules", () => {
  const lines = markdownLines(
    "# Title\n- one item that wraps onto a second line\n2. two\n> quoted\n---\n```ts\nconst x = 1;\n```\nafter",
    20,
  );
  assert.deepEqual(text(lines), [
    "Title",
    "• one item that",
    "  wraps onto a",
    "  second line",
    "2. two",
    "│ quoted",
    "─".repeat(20),
    "ts",
    "  const x = 1;",
    "after",
  ]);
  assert.equal(lines[0]![0]!.bold, true);
  assert.equal(lines[8]![0]!.code, true);
  assert.equal(lines[9]![0]!.code, undefined);
});

Deno.test("MarkdownStream lays out each finished line once and keeps a fence open", () => {
  const stream = new MarkdownStream(30);
  const source = "  Intro with **bold**\n```\ncode line\n```\nThe end of it";
  for (const piece of source.match(/\S+\s*|\s+/g)!) stream.append(piece);
  assert.deepEqual(text(stream.lines()), text(markdownLines(source.trimStart(), 30)));
  assert.equal(stream.finishedCount, 2);
  assert.deepEqual(text(stream.openLines()), ["The end of it"]);
});

Deno.test("toolOutcomeLine() says ran, denied or failed, with the result in short", () => {
  assert.equal(
    toolOutcomeLine("en", "read_file", '"hello\\nworld"'),
    "  ✓ read_file ran: hello world",
  );
  assert.equal(
    toolOutcomeLine("tr", "shell", JSON.stringify({ declined: true, message: "x" })),
    "  ✗ shell reddedildi: çalışmadı",
  );
  assert.equal(toolOutcomeLine("en", "shell", '{"error":"exit 1"}'), "  ✗ shell failed: exit 1");
  const long = toolOutcomeLine("en", "list", JSON.stringify({ items: "x".repeat(500) }));
  assert.ok(long.length < 110 && long.endsWith("…"), long);
});

Deno.test("MarkdownPrinter prints rows as they complete, wrapped at words, none lost", () => {
  const source = "Intro **bold** text.\n\n" +
    "- a list item whose words go on for a while and wrap under the bullet nicely\n" +
    "```\nconst x = 1;\n```\n" +
    Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
  for (const piece of [1, 3, 7, 1000]) {
    let out = "";
    const printer = new MarkdownPrinter({ columns: () => 31, write: (t) => out += t });
    for (let i = 0; i < source.length; i += piece) printer.append(source.slice(i, i + piece));
    printer.end();
    const rows = out.split("\n").slice(0, -1);
    for (const row of rows) assert.ok(displayWidth(row) <= 30, row);
    assert.deepEqual(rows, text(markdownLines(source, 30)));
  }
});

Deno.test("MarkdownPrinter prints the first rows of a long line before it ends", () => {
  let out = "";
  const printer = new MarkdownPrinter({ columns: () => 21, write: (t) => out += t });
  printer.append("one two three four five six seven eight nine ten eleven twelve ");
  assert.ok(out.split("\n").length >= 3, out);
  printer.append("thirteen");
  printer.end();
  assert.equal(
    out.split("\n").join(" ").replace(/\s+/g, " ").trim(),
    "one two three four five six seven eight nine ten eleven twelve thirteen",
  );
});

Deno.test("paintRow() paints styles with ANSI codes only when asked", () => {
  const row = markdownLines("a **b** `c`", 20)[0]!;
  assert.equal(paintRow(row, false), "a b c");
  assert.equal(paintRow(row, true), "a \x1b[1mb\x1b[0m \x1b[36mc\x1b[0m");
});
