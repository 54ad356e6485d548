import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { markdown } from "./markdown.ts";

/**
 * What `markdown()` draws for `text`, as HTML, with a DOM (`linkedom`) as the page's
 * `document` for the call; the global is put back.
 */
function drawn(text: string): string {
  const { document } = parseHTML("<!doctype html><html><body></body></html>");
  const global = globalThis as { document?: Document };
  const before = global.document;
  global.document = document as unknown as Document;
  try {
    const el = document.createElement("div");
    el.append(...markdown(text));
    return el.innerHTML;
  } finally {
    if (before === undefined) delete global.document;
    else global.document = before;
  }
}

Deno.test("markdown() opens a fence with an info string after the language; a line that opens none is a paragraph (it looped for ever)", () => {
  assert.equal(
    drawn("```js title=app.js\nconsole.log(1);\n```\n\nAfter."),
    '<pre><code data-lang="js">console.log(1);</code></pre><p>After.</p>',
  );
  // Closed only by as many marks or more, alone on their line.
  assert.equal(
    drawn("````\n```ts\ninside\n```\n````"),
    "<pre><code>```ts\ninside\n```</code></pre>",
  );
  // A backtick in a backtick fence's info: no fence, a paragraph (its marks read inline).
  assert.match(
    drawn("```a`b\nmore\n\n~~ x"),
    /^<p>[^<]*<code>a<\/code>b<br>more<\/p><p>~~ x<\/p>$/,
  );
});

Deno.test("markdown() draws blocks, fences and inline marks as nodes, markup as text", () => {
  assert.equal(
    drawn(
      "## Title\n\nA **bold** `x` <b>\n\n- one\n- two\n\n```ts\nlet a;\n\nlet b;\n```\n\n> quoted",
    ),
    "<h4>Title</h4><p>A <strong>bold</strong> <code>x</code> &lt;b&gt;</p>" +
      "<ul><li>one</li><li>two</li></ul>" +
      '<pre><code data-lang="ts">let a;\n\nlet b;</code></pre>' +
      "<blockquote><p>quoted</p></blockquote>",
  );
});
