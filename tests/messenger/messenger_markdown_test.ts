/**
 * A chat answer's Markdown through the hub (run in the test's process) and the loopback Bot API
 * server, which reads the HTML as Telegram does: bold, italics, a list and a code fence arrive as
 * entities while the model's own `<script>`, `<b>` and `&amp;` arrive as text; a streamed answer
 * whose fence stays open across several edits never has an edit refused; an answer past 4,096
 * characters with a fence across the cut closes it in the first message and opens it again in the
 * next, and one whose bold runs across a cut inside a long paragraph is bold on both sides with no
 * stars shown; refused entities fall back to the plain text the HTML shows.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { type BotServer, startBotServer } from "./_bot_server.ts";
import { parseTelegramHtml, visibleText } from "./_bot_html.ts";
import { type HubHere, messengerHome, OWNER, runHubHere, seenIn } from "./_hub.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };

async function logOf(home: string): Promise<string> {
  try {
    return await Deno.readTextFile(`${home}/data/logs/agent.log`);
  } catch {
    return "";
  }
}

/** The messages the server holds for the owner, in order. */
function messagesOf(bot: BotServer) {
  return [...bot.messages.values()].filter((m) => m.chatId === OWNER)
    .sort((a, b) => a.messageId - b.messageId);
}

/** Runs `body` against a hub answering `replies`; removes everything after. */
async function withHub(
  options: { replies: string[]; wordMs?: number },
  body: (bot: BotServer, home: string) => Promise<void>,
): Promise<void> {
  const bot = startBotServer();
  let hub: HubHere | undefined;
  try {
    const { home } = await messengerHome(bot, options);
    hub = await runHubHere(home, bot);
    await body(bot, home);
  } finally {
    await hub?.stop();
    await bot.stop();
    await cleanup();
  }
}

Deno.test({
  name: "messenger: a chat answer's Markdown arrives as entities, the model's HTML as text",
  ...SLOW,
  async fn() {
    const answer = [
      "**Plan** for *today*:",
      "",
      "- museums",
      "- food with `curl -s`",
      "",
      "```ts",
      "const ok = a < b && c > d;",
      "```",
      "",
      "<script>alert(1)</script> <b>not bold</b> &amp; more",
    ].join("\n");
    await withHub({ replies: [answer] }, async (bot, home) => {
      bot.pushMessage(OWNER, "plan my day");
      await bot.until("the answer", () => seenIn(bot, OWNER).some((t) => t.endsWith("&amp; more")));
      const message = messagesOf(bot).at(-1)!;
      assert.equal(message.parseMode, "HTML");
      const seen = visibleText(message.text);
      assert.equal(
        seen,
        [
          "Plan for today:",
          "",
          "• museums",
          "• food with curl -s",
          "",
          "const ok = a < b && c > d;",
          "",
          "<script>alert(1)</script> <b>not bold</b> &amp; more",
        ].join("\n"),
      );
      const of = (type: string) =>
        message.entities!.filter((e) => e.type === type)
          .map((e) => seen.slice(e.offset, e.offset + e.length));
      assert.deepEqual(of("bold"), ["Plan"]);
      assert.deepEqual(of("italic"), ["today"]);
      assert.deepEqual(of("code"), ["curl -s"]);
      assert.deepEqual(of("pre"), ["const ok = a < b && c > d;"]);
      assert.equal(message.entities!.find((e) => e.type === "pre")!.language, "ts");
      // The model's tags and entity are text: escaped, never passed through.
      assert.ok(message.text.includes("&lt;script&gt;alert(1)&lt;/script&gt;"), message.text);
      assert.ok(message.text.includes("&lt;b&gt;not bold&lt;/b&gt; &amp;amp; more"));
      assert.doesNotMatch(await logOf(home), /can't parse/);
    });
  },
});

Deno.test({
  name: "messenger: a streamed answer with a fence open across several edits has none refused",
  ...SLOW,
  async fn() {
    const code = Array.from({ length: 8 }, (_, i) => `let v${i} = w < ${i} && x;`).join("\n");
    const answer =
      `Here is **the whole code you asked for** now:\n\n\`\`\`js\n${code}\n\`\`\`\n\nDone.`;
    await withHub({ replies: [answer], wordMs: 90 }, async (bot, home) => {
      bot.pushMessage(OWNER, "code please");
      await bot.until(
        "the whole answer",
        () => seenIn(bot, OWNER).some((t) => t.endsWith("Done.")),
        20_000,
      );
      const calls = [...bot.callsOf("sendMessage", OWNER), ...bot.callsOf("editMessageText", OWNER)]
        .sort((a, b) => a.at - b.at);
      // Every text the hub sent is one Telegram takes: well formed, none refused.
      for (const call of calls) {
        assert.equal(call.body.parse_mode, "HTML");
        const parsed = parseTelegramHtml(String(call.body.text));
        if ("error" in parsed) assert.fail(`${parsed.error}: ${call.body.text}`);
      }
      // Several edits showed the fence still open (its code so far as a pre).
      const openFence = calls.slice(0, -1).filter((c) => String(c.body.text).includes("<pre>"));
      assert.ok(openFence.length >= 2, `${openFence.length} edits inside the fence`);
      // No edit showed the marks raw: the open bold was bold at once.
      for (const call of calls) {
        assert.ok(!String(call.body.text).includes("**"), String(call.body.text));
      }
      const last = messagesOf(bot).at(-1)!;
      assert.ok(last.entities!.some((e) => e.type === "pre" && e.language === "js"));
      assert.doesNotMatch(await logOf(home), /can't parse|Bad Request/);
      assert.equal(bot.limited, 0, "no edit met the rate limit");
    });
  },
});

Deno.test({
  name: "messenger: an answer past 4,096 characters closes a fence at the cut and reopens it",
  ...SLOW,
  async fn() {
    const code = Array.from({ length: 260 }, (_, i) => `print(${i}, "<&>")  # row ${i}`).join("\n");
    const answer = `**Script:**\n\n\`\`\`py\n${code}\n\`\`\`\n\nRun it *twice*.`;
    assert.ok(answer.length > 6_000, String(answer.length));
    await withHub({ replies: [answer] }, async (bot, home) => {
      bot.pushMessage(OWNER, "a long script");
      await bot.until(
        "every part",
        () => seenIn(bot, OWNER).some((t) => t.endsWith("Run it twice.")),
        20_000,
      );
      const messages = messagesOf(bot);
      assert.ok(messages.length >= 2, String(messages.length));
      for (const message of messages) {
        assert.ok(visibleText(message.text).length <= 4096);
        assert.ok(message.entities!.some((e) => e.type === "pre" && e.language === "py"));
      }
      assert.ok(messages[0]!.text.startsWith("<b>Script:</b>"));
      assert.ok(messages[0]!.text.endsWith("</code></pre>"), messages[0]!.text.slice(-40));
      assert.ok(messages[1]!.text.startsWith('<pre><code class="language-py">'));
      assert.ok(messages.at(-1)!.text.endsWith("</code></pre>\n\nRun it <i>twice</i>."));
      // Nothing lost at the cut.
      const seen = seenIn(bot, OWNER).join("\n");
      for (let i = 0; i < 260; i++) assert.ok(seen.includes(`print(${i}, "<&>")  # row ${i}\n`));
      assert.doesNotMatch(await logOf(home), /too long|can't parse/);
    });
  },
});

Deno.test({
  name:
    "messenger: a list, a link, a fence and bold cut inside a long paragraph: every text well formed, no mark shown raw",
  ...SLOW,
  async fn() {
    const words = Array.from({ length: 1000 }, (_, i) => `word${i}`).join(" ");
    const answer = [
      "**Links and lists**",
      "",
      "- see [the docs](https://example.com/a_b?x=1&y=2)",
      "- run `ls -l`",
      "",
      "```sh",
      "ls -l <dir> && echo ok",
      "```",
      "",
      `Long: **${words}** end.`,
    ].join("\n");
    await withHub({ replies: [answer] }, async (bot, home) => {
      bot.pushMessage(OWNER, "everything");
      await bot.until(
        "every part",
        () => seenIn(bot, OWNER).some((t) => t.endsWith("word999 end.")),
        20_000,
      );
      // Every text sent or edited in, as Telegram reads it: well formed, within 4,096.
      const calls = [
        ...bot.callsOf("sendMessage", OWNER),
        ...bot.callsOf("editMessageText", OWNER),
      ];
      for (const call of calls) {
        const parsed = parseTelegramHtml(String(call.body.text));
        if ("error" in parsed) assert.fail(`${parsed.error}: ${call.body.text}`);
        assert.ok(parsed.length <= 4096, String(parsed.length));
      }
      const messages = messagesOf(bot);
      assert.equal(messages.length, 2, messages.map((m) => m.text.slice(0, 60)).join("|"));
      const [first, second] = messages.map((m) => ({ m, seen: visibleText(m.text) }));
      assert.ok(
        first!.seen.startsWith(
          "Links and lists\n\n• see the docs (https://example.com/a_b?x=1&y=2)\n• run ls -l\n\nls -l <dir> && echo ok\n\nLong: word0 ",
        ),
        first!.seen.slice(0, 200),
      );
      for (const { m, seen } of [first!, second!]) {
        assert.ok(!seen.includes("**"), seen.slice(0, 80));
        assert.equal(m.parseMode, "HTML");
      }
      const bold = (x: { m: typeof messages[number]; seen: string }) =>
        x.m.entities!.filter((e) => e.type === "bold")
          .map((e) => x.seen.slice(e.offset, e.offset + e.length));
      // Bold up to the cut, and again from it: the paragraph is bold throughout.
      const [title, before] = bold(first!);
      assert.equal(title, "Links and lists");
      assert.ok(before!.startsWith("word0 ") && first!.seen.endsWith(before!), before!.slice(-40));
      const [after] = bold(second!);
      assert.ok(second!.seen.startsWith(after!) && after!.endsWith("word999"), after!.slice(-40));
      assert.equal(second!.seen.slice(after!.length), " end.");
      assert.equal(`${before} ${after}`, words);
      assert.ok(first!.m.entities!.some((e) => e.type === "pre" && e.language === "sh"));
      assert.doesNotMatch(await logOf(home), /can't parse|too long/);
    });
  },
});

Deno.test({
  name: "messenger: refused entities fall back to the plain text the answer shows",
  ...SLOW,
  async fn() {
    await withHub({ replies: ["**Bold** & `x < y`\n- item"] }, async (bot) => {
      bot.refuseEntities = true;
      bot.pushMessage(OWNER, "plain please");
      await bot.until(
        "the plain answer",
        () => messagesOf(bot).at(-1)?.text.endsWith("item") === true,
      );
      assert.deepEqual(
        messagesOf(bot).map((m) => [m.parseMode, m.text]),
        [[undefined, "Bold & x < y\n• item"]],
      );
    });
  },
});

Deno.test({
  name: "messenger: an answer stopped inside its fence ends the code before “cancelled”",
  ...SLOW,
  async fn() {
    const code = Array.from({ length: 40 }, (_, i) => `step ${i}`).join("\n");
    await withHub(
      { replies: [`Doing it:\n\n\`\`\`sh\n${code}\n\`\`\``], wordMs: 100 },
      async (bot) => {
        bot.pushMessage(OWNER, "go");
        await bot.until(
          "the fence streaming",
          () => messagesOf(bot).some((m) => m.text.includes("step 3")),
          15_000,
        );
        bot.pushMessage(OWNER, "/stop");
        await bot.until(
          "the cancelled answer",
          () => seenIn(bot, OWNER).some((t) => t.endsWith("(answer cancelled)")),
          15_000,
        );
        const message = messagesOf(bot).find((m) => m.text.endsWith("(answer cancelled)"))!;
        assert.match(
          message.text,
          /^Doing it:\n\n<pre><code class="language-sh">step 0\n[^]*<\/code><\/pre>\n\n\(answer cancelled\)$/,
        );
        const pre = message.entities!.find((e) => e.type === "pre")!;
        assert.ok(
          !visibleText(message.text).slice(pre.offset, pre.offset + pre.length).includes(
            "cancelled",
          ),
        );
      },
    );
  },
});
