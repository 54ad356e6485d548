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

Deno.test("toolOutcomeLine() says what each tool did in a sentence, en and tr, never its JSON", () => {
  const cases: [string, unknown, string, string][] = [
    [
      "write_note",
      { saved: "groceries", bytes: 10 },
      "  ✓ Saved the note “groceries” (10 bytes).",
      "  ✓ “groceries” notu kaydedildi (10 bayt).",
    ],
    [
      "read_note",
      { name: "groceries", text: "milk, eggs" },
      "  ✓ Read the note “groceries” (10 characters).",
      "  ✓ “groceries” notu okundu (10 karakter).",
    ],
    [
      "list_notes",
      { notes: [{ name: "a" }, { name: "b" }] },
      "  ✓ Looked at the notes: 2 notes.",
      "  ✓ Notlara bakıldı: 2 not.",
    ],
    [
      "list_notes",
      { notes: [] },
      "  ✓ Looked at the notes: there are none.",
      "  ✓ Notlara bakıldı: hiç not yok.",
    ],
    [
      "read_file",
      { path: "persona/user.md", text: "x".repeat(1200), truncated: false },
      "  ✓ Read the file persona/user.md (1,200 characters).",
      "  ✓ persona/user.md dosyası okundu (1.200 karakter).",
    ],
    [
      "current_time",
      {
        utc: "2026-11-29T10:00:00.000Z",
        time_zone: "Europe/Istanbul",
        local: "2026-11-29T13:00:00",
        formatted: "29.11.2026 13:00",
      },
      "  ✓ Looked at the clock: 29.11.2026 13:00 (Europe/Istanbul).",
      "  ✓ Saate bakıldı: 29.11.2026 13:00 (Europe/Istanbul).",
    ],
    [
      "fetch_url",
      { url: "https://example.com/", status: 200, title: "Example", text: "Hello", untrusted: "x" },
      "  ✓ Read “Example” from https://example.com/ (5 characters).",
      "  ✓ https://example.com/ adresinden “Example” okundu (5 karakter).",
    ],
    [
      "fetch_url",
      { url: "https://example.com/gone", status: 404, text: "" },
      "  ✗ https://example.com/gone answered with HTTP status 404.",
      "  ✗ https://example.com/gone HTTP 404 durumuyla yanıtladı.",
    ],
    [
      "shell",
      { exit_code: 0, source: "shell", untrusted: "x", text: "a\nb\n", truncated: false },
      "  ✓ The command finished: 2 lines of output.",
      "  ✓ Komut bitti: 2 satır çıktı.",
    ],
    [
      "shell",
      { exit_code: 2, source: "shell", untrusted: "x", text: "", truncated: false },
      "  ✗ The command ended with exit code 2: no output.",
      "  ✗ Komut 2 çıkış koduyla bitti: çıktı yok.",
    ],
    [
      "web_search",
      { query: "deno", text: "1. A\n   u\n   s\n2. B\n   u\n   s", cost_usd: 0.005 },
      "  ✓ Searched the web for “deno”: 2 results.",
      "  ✓ Web'de “deno” arandı: 2 sonuç.",
    ],
    [
      "net_send",
      { sent: true, id: "m1", to: "bob.example" },
      "  ✓ Sent the message to bob.example.",
      "  ✓ Mesaj bob.example adresine gönderildi.",
    ],
    [
      "recall",
      { note: "x", memories: [{ id: 1 }] },
      "  ✓ Looked in memory: 1 memory found.",
      "  ✓ Bellekte arandı: 1 anı bulundu.",
    ],
    [
      "remember",
      { remembered: 4 },
      "  ✓ Remembered as memory #4.",
      "  ✓ #4 numaralı anı olarak hatırlandı.",
    ],
    [
      "forget",
      { forgotten: [4, 7], not_found: [9] },
      "  ✓ Forgot memories #4, #7; memory #9 not found.",
      "  ✓ #4, #7 numaralı anılar unutuldu; #9 numaralı anı bulunamadı.",
    ],
    [
      "files__read_text_file",
      { source: "mcp:files/read_text_file", untrusted: "x", text: "abc", truncated: false },
      "  ✓ read_text_file of files answered with 3 characters.",
      "  ✓ files sunucusunun read_text_file aracı 3 karakter ile yanıtladı.",
    ],
    [
      "some_plugin",
      { items: "x".repeat(500) },
      "  ✓ some_plugin ran and returned 512 characters.",
      "  ✓ some_plugin çalıştı ve 512 karakter döndürdü.",
    ],
    [
      "shell",
      { declined: true, reason: "expired" },
      "  ✗ shell did not run: no one answered in time.",
      "  ✗ shell çalışmadı: zamanında yanıt gelmedi.",
    ],
    [
      "shell",
      { declined: true, message: "x" },
      "  ✗ shell did not run: you denied it.",
      "  ✗ shell çalışmadı: siz reddettiniz.",
    ],
    ["shell", { error: "exit 1" }, "  ✗ shell failed: exit 1", "  ✗ shell başarısız: exit 1"],
  ];
  for (const [tool, output, en, tr] of cases) {
    assert.equal(toolOutcomeLine("en", tool, JSON.stringify(output)), en);
    assert.equal(toolOutcomeLine("tr", tool, JSON.stringify(output)), tr);
  }
  // A long value from a result is cut; control characters cannot act.
  const long = toolOutcomeLine(
    "en",
    "write_note",
    JSON.stringify({ saved: "n\x1b[2J".repeat(40), bytes: 1 }),
  );
  assert.ok(long.length < 110 && long.includes("…") && !long.includes("\x1b"), long);
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
