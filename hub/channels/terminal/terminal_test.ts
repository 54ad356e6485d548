import assert from "node:assert/strict";
import { inline, markdownLines, MarkdownStream, plainText, type StyledLine } from "./markdown.ts";
import { displayWidth } from "./width.ts";
import { toolOutcomeLine } from "./tool_outcome.ts";

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
