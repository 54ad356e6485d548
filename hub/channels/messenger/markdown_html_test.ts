import assert from "node:assert/strict";
import { markdownHtml, markdownHtmlParts, plainOfHtml } from "./markdown_html.ts";
import { escapeHtml, MESSAGE_MAX } from "./telegram.ts";

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
