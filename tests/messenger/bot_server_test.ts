/**
 * The loopback Bot API server keeps Telegram's limits, so the messenger's tests meet
 * them: length after entity parsing, malformed HTML, the edit rate and the send rate
 * in a chat, each refused as Telegram refuses it.
 */
import assert from "node:assert/strict";
import { parseTelegramHtml, visibleText } from "./_bot_html.ts";
import { startBotServer } from "./_bot_server.ts";

async function call(
  bot: ReturnType<typeof startBotServer>,
  method: string,
  body: Record<string, unknown>,
  // deno-lint-ignore no-explicit-any
): Promise<any> {
  const res = await fetch(`${bot.apiRoot}/bot${bot.token}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return await res.json();
}

Deno.test("parseTelegramHtml() takes Telegram's tags and entities and refuses the rest", () => {
  assert.deepEqual(parseTelegramHtml("<b>a</b> &lt;b&gt; <code>x &amp; y</code>"), {
    length: 11,
    entities: [{ type: "bold", offset: 0, length: 1 }, { type: "code", offset: 6, length: 5 }],
  });
  assert.deepEqual(parseTelegramHtml('<a href="https://x.example">x</a>'), {
    length: 1,
    entities: [{ type: "text_link", offset: 0, length: 1, url: "https://x.example" }],
  });
  assert.deepEqual(
    parseTelegramHtml('<blockquote>q</blockquote>\n<pre><code class="language-ts">a</code></pre>'),
    {
      length: 3,
      entities: [
        { type: "blockquote", offset: 0, length: 1 },
        { type: "pre", offset: 2, length: 1, language: "ts" },
      ],
    },
  );
  for (
    const [text, error] of [
      ["<x>hi</x>", 'Unsupported start tag "x" at byte offset 0'],
      ["a < b", "Unexpected character '<' outside a tag at byte offset 2"],
      ["fish & chips", "Unsupported HTML entity at byte offset 5"],
      ["<b>open", 'Can\'t find end tag corresponding to start tag "b"'],
      ["<b><i>x</b></i>", 'Unmatched end tag "b" at byte offset 7'],
    ]
  ) {
    const parsed = parseTelegramHtml(text!);
    assert.ok("error" in parsed, text);
    assert.equal(parsed.error, `Bad Request: can't parse entities: ${error}`);
  }
  assert.equal(visibleText("<b>1 &lt; 2</b> &amp; 3"), "1 < 2 & 3");
});

Deno.test("the Bot API server refuses long texts, malformed HTML, fast edits and send bursts", async () => {
  const bot = startBotServer(undefined, { sendsPerSecond: 3 });
  try {
    const long = await call(bot, "sendMessage", { chat_id: 1, text: "a".repeat(4097) });
    assert.equal(long.description, "Bad Request: message is too long");
    // 4,096 visible characters fit, however long the HTML is.
    const fits = await call(bot, "sendMessage", {
      chat_id: 1,
      text: "&amp;".repeat(4096),
      parse_mode: "HTML",
    });
    assert.equal(fits.ok, true);
    const bad = await call(bot, "sendMessage", {
      chat_id: 1,
      text: "<p>x</p>",
      parse_mode: "HTML",
    });
    assert.equal(bad.error_code, 400);
    assert.match(bad.description, /can't parse entities: Unsupported start tag "p"/);

    const id = fits.result.message_id;
    const first = await call(bot, "editMessageText", { chat_id: 1, message_id: id, text: "one" });
    assert.equal(first.ok, true);
    const second = await call(bot, "editMessageText", { chat_id: 1, message_id: id, text: "two" });
    assert.equal(second.error_code, 429);
    assert.equal(second.parameters.retry_after, 1);

    // The third send within a second is refused (one went above): retry_after says when.
    assert.equal((await call(bot, "sendMessage", { chat_id: 2, text: "a" })).ok, true);
    assert.equal((await call(bot, "sendMessage", { chat_id: 2, text: "b" })).ok, true);
    assert.equal((await call(bot, "sendMessage", { chat_id: 2, text: "c" })).ok, true);
    const burst = await call(bot, "sendMessage", { chat_id: 2, text: "d" });
    assert.equal(burst.error_code, 429);
    assert.equal(burst.parameters.retry_after, 1);
    assert.equal(bot.limited, 2);
  } finally {
    await bot.stop();
  }
});
