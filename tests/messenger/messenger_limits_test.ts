/**
 * Telegram's limits through the hub (in the test's process, as `agent hub run` assembles
 * it) and the loopback Bot API server, which keeps them: a 20,000-character answer split
 * at paragraphs and never dropped, a burst of 50 messages answered in order through the
 * 429s, at most one edit a second, and a short answer visible whole as soon as the model
 * is done.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { startBotServer } from "./_bot_server.ts";
import { messengerHome, OWNER, runHubHere, seenIn } from "./_hub.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };

async function logOf(home: string): Promise<string> {
  try {
    return await Deno.readTextFile(`${home}/data/logs/agent.log`);
  } catch {
    return "";
  }
}

Deno.test({
  name: "messenger: a 20,000-character answer arrives whole, split at paragraphs",
  ...SLOW,
  async fn() {
    const paragraphs = Array.from(
      { length: 40 },
      (_, i) => `Paragraph ${i} & <more>: ${"word ".repeat(96).trim()}.`,
    );
    const long = paragraphs.join("\n\n");
    assert.ok(long.length >= 20_000, String(long.length));
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { replies: [long] });
    const hub = await runHubHere(home, bot);
    try {
      bot.pushMessage(OWNER, "write a lot");
      await bot.until(
        "every part",
        () => seenIn(bot, OWNER).join("\n\n") === long,
        20_000,
      );
      const parts = seenIn(bot, OWNER);
      assert.ok(parts.length >= 5, String(parts.length));
      for (const part of parts) {
        assert.ok(part.length <= 4096);
        // Each part is whole paragraphs.
        assert.ok(part.startsWith("Paragraph ") && part.endsWith("."), part.slice(0, 40));
      }
      assert.doesNotMatch(await logOf(home), /too long|can't parse/);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: a burst of 50 messages is answered in order, the 429s waited out",
  ...SLOW,
  async fn() {
    const replies = Array.from({ length: 50 }, (_, i) => `Answer ${i + 1}.`);
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { replies });
    const hub = await runHubHere(home, bot);
    try {
      for (let i = 1; i <= 50; i++) bot.pushMessage(OWNER, `Question ${i}?`);
      await bot.until(
        "the fiftieth answer",
        () => seenIn(bot, OWNER).includes("Answer 50."),
        60_000,
      );
      const answers = seenIn(bot, OWNER).filter((text) => text.startsWith("Answer "));
      assert.deepEqual(answers, replies);
      assert.ok(bot.limited > 0, "the burst met Telegram's send rate");
      // Every message had its answer or acknowledgement: none refused for good.
      assert.doesNotMatch(await logOf(home), /Too Many Requests/);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: a streamed answer is edited at most once a second, the last edit at once",
  ...SLOW,
  async fn() {
    const reply = Array.from({ length: 30 }, (_, i) => `w${i}`).join(" ");
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { replies: [reply], wordMs: 100 });
    const hub = await runHubHere(home, bot);
    try {
      const id = bot.pushMessage(OWNER, "stream");
      await bot.until("the whole answer", () => seenIn(bot, OWNER).includes(reply), 15_000);
      const sent = bot.callsOf("sendMessage", OWNER)[0]!;
      const edits = bot.callsOf("editMessageText", OWNER);
      assert.ok(edits.length >= 2, String(edits.length));
      assert.ok(edits[0]!.at - sent.at >= 990, `first edit after ${edits[0]!.at - sent.at} ms`);
      for (let i = 1; i < edits.length; i++) {
        assert.ok(edits[i]!.at - edits[i - 1]!.at >= 990, `edit ${i} too soon`);
      }
      assert.equal(bot.limited, 0, "no edit met the rate limit");
      // The model took about 30 × 100 ms; the last edit follows it without a fixed pace.
      const whole = edits.at(-1)!.at - bot.served.get(id)!;
      assert.ok(whole < 3_000 + 1_000 + 500, `whole answer after ${whole} ms`);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: an answer done within a second is visible whole right after the model",
  ...SLOW,
  async fn() {
    const reply = "Short and done in well under a second.";
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { replies: [reply, reply], wordMs: 60 });
    const hub = await runHubHere(home, bot);
    try {
      for (const text of ["warm up", "measure"]) {
        const id = bot.pushMessage(OWNER, text);
        const before = bot.calls.length;
        await bot.until(
          "the whole answer",
          () =>
            bot.calls.slice(before).some((c) =>
              (c.method === "sendMessage" || c.method === "editMessageText") &&
              c.body.text === reply
            ),
          15_000,
        );
        if (text === "warm up") {
          await new Promise((r) => setTimeout(r, 1_100));
          continue;
        }
        const done = bot.calls.slice(before).find((c) => c.body.text === reply)!;
        const first = bot.calls.slice(before).find((c) => c.method === "sendMessage")!;
        // The last edit goes at once, not at the next of the edits' one-a-second slots: it
        // follows the first words by less than a second (a paced one follows by a second
        // or more, whatever the machine's load).
        const sinceFirst = done.at - first.at;
        assert.ok(sinceFirst < 1_000, `the whole answer ${sinceFirst} ms after the first words`);
        // 8 words 60 ms apart: about 420 ms of model time, then one call (a loaded machine
        // stretches the model's timers, so this bound leaves room).
        const ms = done.at - bot.served.get(id)!;
        assert.ok(ms < 2_000, `whole answer after ${ms} ms`);
        assert.equal(
          bot.calls.slice(before).filter((c) => c.method === "editMessageText").length,
          1,
          "the first words, then one final edit",
        );
      }
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});
