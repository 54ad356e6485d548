/**
 * The messenger as the owner's line to the hub: answers from a real vendor wire format,
 * a stranger's contact request accepted by a button, budget warnings and spent budgets
 * told once, webhook mode, and `agent doctor`'s messenger line.
 */
import assert from "node:assert/strict";
import { Ledger } from "@agent/hub/money";
import { agent, cleanup } from "../cli/_run.ts";
import { netInit, netNode, netPublished, untilCard } from "../_net_here.ts";
import { startSpine } from "../spine/_harness.ts";
import { startVendorServer } from "../_vendor_server.ts";
import { startBotServer } from "./_bot_server.ts";
import { contactStates, messengerHome, OWNER, runHubHere, textsIn } from "./_hub.ts";
import { until } from "../_poll.ts";
import { startHomeHub } from "../_home_hub.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "messenger: an answer streamed from a vendor-a wire-format server, priced in the ledger",
  ...SLOW,
  async fn() {
    const vendor = startVendorServer({ reply: "Tea is ready, boss." });
    const bot = startBotServer();
    const { home } = await messengerHome(bot, {
      env: { VENDOR_A_API_KEY: "test-key" },
      toml: [[
        '[models.roles.brain]\nprovider = "fake"\nmodel_id = "fake-brain"\n',
        `[models.roles.brain]\nprovider = "vendor-a"\nmodel_id = "claude-sonnet-5"\nparams = { base_url = "${vendor.url}/v1" }\n`,
      ]],
    });
    const hub = await runHubHere(home, bot);
    try {
      bot.pushMessage(OWNER, "Tea?");
      await bot.until(
        "the vendor's answer",
        () => textsIn(bot, OWNER).includes("Tea is ready, boss."),
      );
      assert.equal(vendor.requests.filter((r) => r.path === "/v1/messages").length, 1);
      using ledger = Ledger.open(`${home}/data/spend.sqlite3`);
      const [row] = ledger.breakdown("channel", { sinceMs: 0 });
      assert.equal(row?.channel, "messenger");
      assert.ok((row?.usd ?? 0) > 0);
    } finally {
      await hub.stop();
      await bot.stop();
      await vendor.close();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: a budget past 80% and a spent budget are told once each",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot);
    {
      using ledger = Ledger.open(`${home}/data/spend.sqlite3`);
      const row = {
        ts: Date.now() - 1000,
        provider: "fake" as const,
        model_id: "m",
        input_tokens: 1,
        output_tokens: 1,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        channel: "chat" as const,
        session_id: null,
        peer: null,
      };
      ledger.recordMany([{ ...row, role: "brain", usd: 13 }, { ...row, role: "fast", usd: 1.2 }]);
    }
    let hub = await runHubHere(home, bot);
    try {
      await bot.until("both notices", () => textsIn(bot, OWNER).length >= 3, 15_000);
      const texts = textsIn(bot, OWNER);
      assert.ok(
        texts.some((x) => x.startsWith("Budget warning: brain has spent $13.00 of $15.00")),
        texts.join("\n"),
      );
      assert.ok(
        texts.some((x) => x.startsWith("The fast budget is spent ($1.20 of $1.00)")),
        texts.join("\n"),
      );
      const told = texts.length;
      await hub.stop();
      hub = await runHubHere(home, bot);
      await new Promise((r) => setTimeout(r, 2_500));
      assert.equal(textsIn(bot, OWNER).length, told);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: a stranger's contact request arrives with buttons; Accept makes a contact",
  ...SLOW,
  async fn() {
    const spineA = await startSpine({ hubToken: "ta" });
    const spineB = await startSpine({ hubToken: "tb" });
    const bot = startBotServer();
    const envA = {
      AGENT_SPINE_URL: spineA.url,
      AGENT_SPINE_TOKEN: "ta",
      AGENT_NET_ALLOW_INSECURE: "1",
    };
    const envB = {
      AGENT_SPINE_URL: spineB.url,
      AGENT_SPINE_TOKEN: "tb",
      AGENT_NET_ALLOW_INSECURE: "1",
    };
    const { home: homeA } = await messengerHome(bot, { env: envA });
    const { home: homeB } = await messengerHome(startBotServer(), { env: envB });
    const a = (...args: string[]) => agent(["--home", homeA, "net", ...args]);
    // Both homes made and B published in process (the `net` commands' own tests run them).
    await netInit(homeA, "Owner");
    await netPublished(homeB, "Stranger");
    const hub = await runHubHere(homeA, bot);
    try {
      await untilCard(spineA.url);
      await (await netNode(homeB)).add(spineA.address, "hello\u001b[2J friend");
      await bot.until(
        "the request",
        () =>
          [...bot.messages.values()].some((m) => m.chatId === OWNER && m.replyMarkup !== undefined),
        20_000,
      );
      const ask = [...bot.messages.values()].find((m) => m.chatId === OWNER && m.replyMarkup)!;
      assert.equal(
        ask.text,
        // A control character from the peer shows as a space, not as an escape.
        `Stranger (${spineB.address}) asks to become a contact:\n“hello [2J friend”`,
      );
      const [accept, block] = (ask.replyMarkup as {
        inline_keyboard: { text: string; callback_data: string }[][];
      }).inline_keyboard[0]!;
      assert.deepEqual([accept!.text, block!.text], ["Accept", "Block"]);
      bot.pushPress(OWNER, ask.messageId, accept!.callback_data);
      await bot.until(
        "the outcome",
        () =>
          bot.messages.get(`${OWNER}:${ask.messageId}`)!.text ===
            `${spineB.address} is now a contact.`,
      );
      await until(
        "A holds B as a contact",
        async () => (await contactStates(homeA)).includes("accepted"),
        { timeoutMs: 10_000 },
      );
      assert.match((await a("contacts")).stdout, /accepted/, "A lists B as a contact");
    } finally {
      await hub.stop();
      await bot.stop();
      await spineA.stop();
      await spineB.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: webhook mode takes updates on the control API only with the secret",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home, port } = await messengerHome(bot, {
      replies: ["Via the webhook."],
      env: { MESSENGER_WEBHOOK_SECRET: "hook-secret-123" },
      toml: [['mode = "polling"', 'mode = "webhook"']],
    });
    // The webhook is the control API's route: the hub runs in this process as `agent hub
    // run` assembles it (`_home_hub.ts`); its process is not the point here.
    const hub = await startHomeHub(home).catch(async (error) => {
      await bot.stop();
      await cleanup();
      throw error;
    });
    const url = `http://127.0.0.1:${port}/messenger/webhook`;
    const update = (id: number) =>
      JSON.stringify({
        update_id: id,
        message: {
          message_id: 1,
          date: 0,
          chat: { id: OWNER, type: "private" },
          from: { id: OWNER, is_bot: false, first_name: "O" },
          text: "hello",
        },
      });
    try {
      await bot.until("setMyCommands", () => bot.callsOf("setMyCommands").length === 2, 30_000);
      const post = (secret: string | undefined, body: string) =>
        fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(secret ? { "x-telegram-bot-api-secret-token": secret } : {}),
          },
          body,
        });
      let r = await post(undefined, update(1));
      assert.deepEqual([r.status, await r.json()], [401, { error: "unauthorized" }]);
      r = await post("wrong", update(1));
      assert.equal(r.status, 401);
      await r.body?.cancel();
      r = await post("hook-secret-123", "{not json");
      // A fixed sentence, never the JSON parser's own words.
      assert.deepEqual([r.status, await r.json()], [400, {
        error: "bad_request",
        detail: "the body is not JSON",
      }]);
      r = await post("hook-secret-123", update(7));
      assert.deepEqual([r.status, await r.json()], [200, { ok: true }]);
      // The same update again is taken once.
      r = await post("hook-secret-123", update(7));
      await r.body?.cancel();
      await bot.until("the answer", () => textsIn(bot, OWNER).includes("Via the webhook."));
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(textsIn(bot, OWNER).length, 1);
      assert.deepEqual(bot.callsOf("getUpdates"), []);
      assert.deepEqual(bot.callsOf("deleteWebhook"), []);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test("agent doctor: the messenger line, and a warning when no chat is allowed", async () => {
  const bot = startBotServer();
  try {
    const { home } = await messengerHome(bot);
    let r = await agent(["--home", home, "doctor"]);
    assert.match(r.stdout, /^ok messenger: 1 chat\(s\) allowed, polling$/m);
    const { home: none } = await messengerHome(bot, { env: { MESSENGER_ALLOWED_CHAT_IDS: "" } });
    r = await agent(["--home", none, "doctor"]);
    assert.match(r.stdout, /^warn messenger: MESSENGER_BOT_TOKEN is set but no chat is allowed/m);
    assert.ok(!r.stdout.includes(bot.token));
  } finally {
    await bot.stop();
    await cleanup();
  }
});
