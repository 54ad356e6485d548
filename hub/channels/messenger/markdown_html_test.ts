import assert from "node:assert/strict";
import {
  closeFence,
  closeOpenMarks,
  markdownHtml,
  markdownHtmlPart,
  markdownHtmlParts,
  plainOfHtml,
} from "./markdown_html.ts";
import { escapeHtml, MESSAGE_MAX, splitMessage, splitParts } from "./telegram.ts";

/** Throws unless `html` is well formed as Telegram reads it: tags closed in order, text escaped. */
function assertWellFormed(html: string): void {
  const stack: string[] = [];
  for (const piece of html.split(/(<[^<>]*>)/)) {
    const tag = /^<(\/?)(b|i|code|pre|blockquote)(?: class="language-[\w+#.-]+")?>$/.exec(piece);
    if (tag !== null) {
      if (tag[1]) assert.equal(stack.pop(), tag[2], html);
      else stack.push(tag[2]!);
      continue;
    }
    assert.doesNotMatch(piece, /[<>]|&(?!lt;|gt;|amp;)/, html);
  }
  assert.deepEqual(stack, [], html);
}

Deno.test("markdownHtml() shows inline marks as Telegram tags around escaped text", () => {
  assert.equal(
    markdownHtml("**Bold** and *it* and `a<b>` & [docs](https://x.io)"),
    "<b>Bold</b> and <i>it</i> and <code>a&lt;b&gt;</code> &amp; docs (https://x.io)",
  );
  assert.equal(markdownHtml("snake_case_name stays"), "snake_case_name stays");
  assert.equal(markdownHtml("**unclosed stays"), "**unclosed stays");
  assert.equal(markdownHtml("***both***"), "<b><i>both</i></b>");
});

Deno.test("markdownHtml() renders headings, lists, quotes, rules and fences", () => {
  assert.equal(markdownHtml("## Today"), "<b>Today</b>");
  assert.equal(markdownHtml("- one\n  - two\n3. three"), "• one\n  • two\n3. three");
  assert.equal(
    markdownHtml("> said\n> **this**\nafter"),
    "<blockquote>said\n<b>this</b></blockquote>\nafter",
  );
  assert.equal(markdownHtml("---"), "───");
  assert.equal(
    markdownHtml("Code:\n```ts\nif (a < b) x();\n```\ndone"),
    'Code:\n<pre><code class="language-ts">if (a &lt; b) x();</code></pre>\ndone',
  );
  // A language that is not a plain word is left out of the attribute.
  assert.equal(markdownHtml('```a" onclick="x\ny\n```'), "<pre>y</pre>");
  // A fence the text never closes is closed at its end.
  assert.equal(markdownHtml("```\n**not bold**"), "<pre>**not bold**</pre>");
  assert.equal(markdownHtml("```\n```\nafter"), "after");
});

Deno.test("markdownHtmlParts() splits like the messenger and keeps each part well formed", () => {
  const code = Array.from({ length: 400 }, (_, i) => `line ${i} <tag> & more`).join("\n");
  const text = `**Report**\n\n\`\`\`\n${code}\n\`\`\`\n\nThe end.`;
  const parts = markdownHtmlParts(text);
  assert.ok(parts.length >= 3, `${parts.length} parts`);
  for (const part of parts) {
    assert.ok(plainOfHtml(part).length <= MESSAGE_MAX);
    // Every tag closed in its own part.
    const tags = [...part.matchAll(/<(\/?)(\w+)[^>]*>/g)];
    const stack: string[] = [];
    for (const [, closing, name] of tags) {
      if (closing) assert.equal(stack.pop(), name);
      else stack.push(name!);
    }
    assert.deepEqual(stack, []);
  }
  // The fence is reopened in each part it runs into, and nothing is lost.
  assert.ok(parts.slice(1, -1).every((p) => p.startsWith("<pre>")));
  assert.ok(parts.at(-1)!.endsWith("The end."));
  const seen = parts.map(plainOfHtml).join("\n");
  for (let i = 0; i < 400; i++) assert.ok(seen.includes(`line ${i} <tag> & more`), `line ${i}`);
  assert.ok(seen.startsWith("Report\n\n"));
});

Deno.test("markdownHtmlParts() sends a part of marks only as typed", () => {
  assert.deepEqual(markdownHtmlParts("```"), [escapeHtml("```")]);
  assert.deepEqual(markdownHtmlParts(""), []);
});

Deno.test("plainOfHtml() reads tags out and entities back", () => {
  assert.equal(plainOfHtml("<b>a &lt;b&gt;</b> &amp; c"), "a <b> & c");
});

Deno.test("closeOpenMarks() closes what the unfinished line opened, when the reader agrees", () => {
  assert.equal(closeOpenMarks("so **far"), "so **far**");
  assert.equal(closeOpenMarks("a **b *c"), "a **b *c***");
  assert.equal(closeOpenMarks("run `ls -l"), "run `ls -l`");
  assert.equal(closeOpenMarks("**bold* "), "**bold**");
  assert.equal(closeOpenMarks("_it"), "_it_");
  // Not marks, or nothing open: as it is.
  assert.equal(closeOpenMarks("2 * 3"), "2 * 3");
  assert.equal(closeOpenMarks("snake_case"), "snake_case");
  assert.equal(closeOpenMarks("**done** now"), "**done** now");
  assert.equal(closeOpenMarks("a **"), "a **");
  assert.equal(closeOpenMarks("``"), "``");
});

Deno.test("markdownHtmlPart() renders a streamed answer's open end well formed", () => {
  const open = { before: [], open: true };
  assert.equal(markdownHtmlPart("Plan:\n- **Mon", open), "Plan:\n• <b>Mon</b>");
  assert.equal(markdownHtmlPart("Plan:\n- **Mon", { before: [], open: false }), "Plan:\n• **Mon");
  // Only the last line is unfinished: an earlier line's lone mark stays as typed.
  assert.equal(markdownHtmlPart("a **b\nc *d", open), "a **b\nc <i>d</i>");
  assert.equal(
    markdownHtmlPart("> quote `x", open),
    "<blockquote>quote <code>x</code></blockquote>",
  );
  assert.equal(
    markdownHtmlPart("Code:\n```py\nif a < b:", open),
    'Code:\n<pre><code class="language-py">if a &lt; b:</code></pre>',
  );
  // A text of a fence's opening only shows as typed (Telegram refuses an empty text).
  assert.equal(markdownHtmlPart("```py", open), "```py");
  // The model's own HTML is text.
  assert.equal(
    markdownHtmlPart("<script>x</script> <b>y</b> &amp; **z", open),
    "&lt;script&gt;x&lt;/script&gt; &lt;b&gt;y&lt;/b&gt; &amp;amp; <b>z</b>",
  );
});

Deno.test("markdownHtmlPart() is well formed for every prefix of an answer", () => {
  const answer = [
    "# Trip **plan**",
    "",
    "Some *light* reading and __strong__ words, `code` & <tags>, snake_case_names.",
    "- **Mon**: museums",
    "- _Tue_: food [map](https://x.io/a_b)",
    "> a **quote** with `ls -l`",
    "```ts",
    "const a = b < c && d > e; // **not bold**",
    "```",
    "~~~",
    "tilde *fence*",
    "~~~",
    "1. done ***both*** \\*escaped\\*",
  ].join("\n");
  for (let end = 1; end <= answer.length; end++) {
    const html = markdownHtmlPart(answer.slice(0, end), { before: [], open: true });
    assertWellFormed(html);
    assert.ok(plainOfHtml(html).length <= escapeHtml(answer.slice(0, end)).length);
  }
});

Deno.test("markdownHtmlPart() reopens a fence cut by a split in the next part", () => {
  const code = Array.from({ length: 300 }, (_, i) => `row(${i}) < limit && go();`).join("\n");
  const text = `Intro **here**.\n\n\`\`\`js\n${code}\n\`\`\`\n\nAfter *all*.`;
  const parts = splitMessage(text);
  assert.ok(parts.length >= 2, String(parts.length));
  const html = parts.map((part, i) =>
    markdownHtmlPart(part, { before: parts.slice(0, i), open: false })
  );
  assert.deepEqual(html, markdownHtmlParts(text));
  for (const part of html) {
    assertWellFormed(part);
    assert.ok(plainOfHtml(part).length <= MESSAGE_MAX);
  }
  assert.ok(html[0]!.endsWith("</code></pre>"));
  assert.ok(html[1]!.startsWith('<pre><code class="language-js">'));
  assert.ok(html.at(-1)!.endsWith("After <i>all</i>."));
});

Deno.test("closeFence() closes a fence the text leaves open, with its own marker", () => {
  assert.equal(closeFence("Run:\n```sh\nls -l"), "Run:\n```sh\nls -l\n```");
  assert.equal(closeFence("````\n```\nstill in"), "````\n```\nstill in\n````");
  assert.equal(closeFence("```\nx\n```\nafter"), "```\nx\n```\nafter");
  // What follows it then shows as text.
  assert.equal(
    markdownHtml(`${closeFence("```\nx")}\n\n(cancelled)`),
    "<pre>x</pre>\n\n(cancelled)",
  );
});

Deno.test("splitParts() says which cuts fall inside a line", () => {
  const words = Array.from({ length: 900 }, (_, i) => `word${i}`).join(" ");
  const [a, b] = splitParts(`${words}\n\nnext paragraph`);
  assert.equal(a!.cutsLine, true);
  assert.equal(b!.cutsLine, false);
  const lines = Array.from({ length: 400 }, (_, i) => `line ${i} of the report`).join("\n");
  for (const part of splitParts(lines)) assert.equal(part.cutsLine, false);
  assert.deepEqual(splitParts(lines).map((p) => p.text), splitMessage(lines));
});

Deno.test("markdownHtmlParts() keeps bold, italics and a code span that a cut inside a long line splits", () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
  for (const [mark, tag] of [["**", "b"], ["*", "i"], ["`", "code"]] as const) {
    const text = `Intro. ${mark}${words(900)}${mark} end.`;
    const parts = markdownHtmlParts(text);
    assert.equal(parts.length, 2, mark);
    for (const part of parts) {
      assertWellFormed(part);
      assert.ok(plainOfHtml(part).length <= MESSAGE_MAX);
      // No mark shows raw on either side of the cut.
      assert.ok(!plainOfHtml(part).includes(mark), `${mark}: ${part.slice(0, 80)}`);
    }
    assert.ok(parts[0]!.startsWith(`Intro. <${tag}>word0 `), parts[0]!.slice(0, 40));
    assert.ok(parts[0]!.endsWith(`</${tag}>`), parts[0]!.slice(-40));
    assert.ok(parts[1]!.startsWith(`<${tag}>word`), parts[1]!.slice(0, 40));
    assert.ok(parts[1]!.endsWith(`word899</${tag}> end.`), parts[1]!.slice(-40));
    // The words are all there, once each.
    const seen = parts.map(plainOfHtml).join(" ");
    assert.equal(seen, `Intro. ${words(900)} end.`);
  }
  // Streamed, part by part, the same HTML.
  const text = `Intro. **bold *and ${words(900)}* more** end.`;
  const split = splitParts(text);
  const cutsLine = split.map((p) => p.cutsLine);
  const streamed = split.map((p, i) =>
    markdownHtmlPart(p.text, {
      before: split.slice(0, i).map((q) => q.text),
      open: false,
      cutsLine,
    })
  );
  assert.deepEqual(streamed, markdownHtmlParts(text));
  assert.ok(streamed[1]!.startsWith("<b><i>word"), streamed[1]!.slice(0, 40));
  // A cut between lines carries nothing: an unclosed mark there stays as typed.
  const lines = `**open ${"x ".repeat(10)}\n${words(700)}`;
  assert.ok(markdownHtmlParts(lines).every((p) => !p.startsWith("<b>")));
});
