/**
 * The network digest in the messenger, end to end: two homes on two spines on workerd,
 * the owner's hub (in the test's process, as `agent hub run` assembles it) talking to the
 * loopback Bot API server. Another agent's question is answered by the owner's agent, the
 * owner is told of it in one message with Block / Remove / Open buttons, Open shows the
 * exchange and Remove tells the other side.
 */
import assert from "node:assert/strict";
import { agent, cleanup } from "../cli/_run.ts";
import { netInit, netNode, netPollOnce, netPublished, untilCard } from "../_net_here.ts";
import { startSpine } from "../spine/_harness.ts";
import { type BotMessage, startBotServer } from "./_bot_server.ts";
import { contactStates, messengerHome, OWNER, runHubHere } from "./_hub.ts";
import { until } from "../_poll.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };

type Keyboard = { inline_keyboard: { text: string; callback_data: string }[][] };

Deno.test({
  name: "messenger: the owner is told of a network conversation, and Open / Remove work",
  ...SLOW,
  async fn() {
    const spineA = await startSpine({ hubToken: "ta" });
    const spineB = await startSpine({ hubToken: "tb" });
    const bot = startBotServer();
    const net = (spine: typeof spineA, token: string) => ({
      AGENT_SPINE_URL: spine.url,
      AGENT_SPINE_TOKEN: token,
      AGENT_NET_ALLOW_INSECURE: "1",
    });
    const { home: homeA } = await messengerHome(bot, { env: net(spineA, "ta") });
    const { home: homeB } = await messengerHome(startBotServer(), { env: net(spineB, "tb") });
    const a = (...args: string[]) => agent(["--home", homeA, "net", ...args]);
    const b = (...args: string[]) => agent(["--home", homeB, "net", ...args]);
    // Both homes made and B published in process (the `net` commands' own tests run them).
    await netInit(homeA, "Owner");
    await netPublished(homeB, "Stranger");
    const hub = await runHubHere(homeA, bot);
    const owned = () => [...bot.messages.values()].filter((m) => m.chatId === OWNER);
    const withButtons = (prefix: string) =>
      owned().filter((m) =>
        (m.replyMarkup as Keyboard | undefined)?.inline_keyboard[0]?.[0]?.callback_data
          .startsWith(prefix)
      );
    try {
      await untilCard(spineA.url);
      await (await netNode(homeB)).add(spineA.address, "");
      await bot.until("the request", () => withButtons("cr:").length === 1, 20_000);
      const request = withButtons("cr:")[0]!;
      const accept = (request.replyMarkup as Keyboard).inline_keyboard[0]![0]!;
      bot.pushPress(OWNER, request.messageId, accept.callback_data);
      await until("accepted", async () => (await contactStates(homeA)).includes("accepted"));
      assert.match((await a("contacts")).stdout, /^accepted/);
      // B learns of the accept by a poll (`agent net poll --once`'s calls, in this process:
      // its sentence is not this test's point; the spawned command is ~0.8 CPU-seconds).
      // A's hub sends the accept from its outbox after the press: B polls until it came.
      let handled = 0;
      await until("B's poll brings the accept", async () => {
        handled += (await netPollOnce(homeB)).handled;
        return handled > 0;
      });
      assert.equal(handled, 1);

      const send = await b("send", spineA.address, "Do you like tea?\nA second line.");
      assert.equal(send.code, 0, send.stderr);
      await bot.until("the digest", () => withButtons("nd:").length === 1, 30_000);
      const digest: BotMessage = withButtons("nd:")[0]!;
      assert.equal(
        digest.text,
        "Your agent answered 1 conversation(s) with other agents:\n\n" +
          `Stranger (${spineB.address})\nasked: Do you like tea?\nanswered: Okay.`,
      );
      const row = (digest.replyMarkup as Keyboard).inline_keyboard[0]!;
      assert.deepEqual(row.map((button) => button.text), [
        "Block Stranger",
        "Remove Stranger",
        "Open Stranger",
      ]);
      // The same digest reaches the hub's event stream (the TUI, the dashboard, chat).
      const events = await Deno.readTextFile(`${homeA}/data/net/events.jsonl`);
      assert.ok(events.includes('"type":"net.digest"'), events);

      const before = owned().length;
      bot.pushPress(OWNER, digest.messageId, row[2]!.callback_data);
      await bot.until("Open's answer", () => owned().length > before);
      assert.equal(
        owned().at(-1)!.text,
        `Last messages with ${spineB.address}:\n` +
          "they: Do you like tea?\nA second line.\nyour agent: Okay.",
      );
      bot.pushPress(OWNER, digest.messageId, row[1]!.callback_data);
      await bot.until("Remove's answer", () => owned().length > before + 1);
      assert.equal(
        owned().at(-1)!.text,
        `${spineB.address} is removed and was told; adding it again sends a new request.`,
      );
      // The removal notice leaves A's outbox after Remove's answer: B polls until it came.
      await until("B's poll brings the removal", async () => {
        await netPollOnce(homeB);
        return (await contactStates(homeB)).includes("removed");
      });
      assert.ok((await b("contacts")).stdout.startsWith(`removed     ${spineA.address}`));
    } finally {
      await hub.stop();
      await bot.stop();
      await spineA.stop();
      await spineB.stop();
      await cleanup();
    }
  },
});
