/**
 * A hub stop while the messenger waits out Telegram's 429 (`retry_after` 60 s): the
 * wait ends on the channel's stop, the real `agent hub run` exits within about two
 * seconds, and what was waiting keeps the messenger's rules across the restart: an
 * owner event is told once after it (never lost, never doubled), a chat's answer stays
 * in its session and the question is not answered again. The hub whose stop is timed is
 * the real process; the hubs before and after it, whose process is not the point, run
 * in the test's process (`_home_hub.ts`: the same assembly, a process start saved each).
 */
import assert from "node:assert/strict";
import { Ledger } from "@agent/hub/money";
import { cleanup } from "../cli/_run.ts";
import { startBotServer } from "./_bot_server.ts";
import { messengerHome, OWNER, runHub, runHubHere, textsIn } from "./_hub.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };
/** Telegram's longest wait the messenger waits out. */
const TOO_MANY = { code: 429, description: "Too Many Requests: retry after 60", retryAfter: 60 };
/** The stop's allowance: the hub's own stop plus the process's exit on a shared machine. */
const STOP_MS = 2_000;

async function readAll(dir: string): Promise<string> {
  let all = "";
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) all += await readAll(path);
    else if (entry.isFile) all += await Deno.readTextFile(path).catch(() => "");
  }
  return all;
}

Deno.test({
  name:
    "messenger: a hub stop during a 429's 60-second wait exits at once; the answer is not doubled",
  ...SLOW,
  async fn() {
    const reply = "An answer Telegram made us wait for.";
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { replies: [reply] });
    const stopped = await runHub(home, bot);
    let hub: { stop(): Promise<unknown> } = stopped;
    try {
      bot.fail("sendMessage", TOO_MANY);
      bot.pushMessage(OWNER, "Answer me?");
      await bot.until("the refused send", () => bot.callsOf("sendMessage", OWNER).length > 0);
      await new Promise((r) => setTimeout(r, 300));
      const at = performance.now();
      const { stdout } = await stopped.stop();
      const ms = performance.now() - at;
      assert.ok(ms < STOP_MS, `the hub took ${Math.round(ms)} ms to stop`);
      assert.match(stdout, /stopped/i);
      const log = await Deno.readTextFile(`${home}/data/logs/agent.log`);
      assert.doesNotMatch(log, /did not stop cleanly/);
      assert.match(log, /hub stopped while Telegram asked to wait \(429\)/);
      // Refused once, not tried again after the stop.
      assert.equal(bot.callsOf("sendMessage", OWNER).length, 1);
      // The answer is kept in the chat's session (resumable), not dropped.
      assert.ok((await readAll(`${home}/data/sessions`)).includes(reply));

      // The question was taken: the next hub does not answer it a second time.
      hub = await runHubHere(home, bot);
      assert.deepEqual(textsIn(bot, OWNER), []);
      // The chat's messages are answered in turn: an answer to the old question would
      // come before the new one's, so once the new one is in, none can follow.
      bot.pushMessage(OWNER, "And now?");
      await bot.until("the next answer", () => textsIn(bot, OWNER).length > 0);
      // One answer, to the new question only.
      assert.equal(textsIn(bot, OWNER).length, 1, textsIn(bot, OWNER).join("\n"));
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: an owner event waiting out a 429 at a hub stop is told once after the restart",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot);
    // A first run leaves the messenger's state file: the events after it are told.
    await (await runHubHere(home, bot)).stop();
    {
      using ledger = Ledger.open(`${home}/data/spend.sqlite3`);
      ledger.recordMany([{
        ts: Date.now() - 1000,
        provider: "fake",
        model_id: "m",
        input_tokens: 1,
        output_tokens: 1,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        channel: "chat",
        session_id: null,
        peer: null,
        role: "brain",
        usd: 13,
      }]);
    }
    bot.fail("sendMessage", TOO_MANY);
    let hub: { stop(): Promise<unknown> } = await runHub(home, bot);
    try {
      await bot.until(
        "the refused budget warning",
        () => bot.callsOf("sendMessage", OWNER).length > 0,
        15_000,
      );
      await new Promise((r) => setTimeout(r, 300));
      const at = performance.now();
      await hub.stop();
      const ms = performance.now() - at;
      assert.ok(ms < STOP_MS, `the hub took ${Math.round(ms)} ms to stop`);
      assert.deepEqual(textsIn(bot, OWNER), []);

      hub = await runHubHere(home, bot);
      const warned = () => textsIn(bot, OWNER).filter((x) => x.startsWith("Budget warning:"));
      await bot.until("the budget warning", () => warned().length > 0, 15_000);
      await new Promise((r) => setTimeout(r, 2_000));
      assert.equal(warned().length, 1, textsIn(bot, OWNER).join("\n"));
      // And once more across another restart: it was told, so it is not told again.
      await hub.stop();
      hub = await runHubHere(home, bot);
      await new Promise((r) => setTimeout(r, 2_000));
      assert.equal(warned().length, 1, textsIn(bot, OWNER).join("\n"));
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});
