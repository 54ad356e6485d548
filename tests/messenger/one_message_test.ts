/**
 * A short answer from a provider stream reaches Telegram as one message (issue 39): its
 * text deltas arrive together, and it used to go out as its first delta plus an edit,
 * two calls where one does (the edit waiting for the chat's edit rate when another
 * answer had just been edited). vendor-a's real SSE wire format, from the loopback
 * vendor server, through a real `agent hub run` and the loopback Bot API server.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { startVendorServer } from "../_vendor_server.ts";
import { startBotServer } from "./_bot_server.ts";
import { messengerHome, OWNER, runHub } from "./_hub.ts";

Deno.test({
  name: "messenger: a short answer streamed by a provider is sent as one message, no edit",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const answer = "Okay, here it is: the kettle is on.";
    // Each word its own text delta, all in one response, as the service streams them.
    const vendor = startVendorServer({ reply: answer });
    const bot = startBotServer();
    const { home } = await messengerHome(bot, {
      env: { VENDOR_A_API_KEY: "test-key" },
      toml: [[
        '[models.roles.brain]\nprovider = "fake"\nmodel_id = "fake-brain"\n',
        `[models.roles.brain]\nprovider = "vendor-a"\nmodel_id = "claude-sonnet-5"\nparams = { base_url = "${vendor.url}/v1" }\n`,
      ]],
    });
    const hub = await runHub(home, bot);
    try {
      for (const ask of ["Kettle?", "And now?"]) {
        const before = bot.calls.length;
        const id = bot.pushMessage(OWNER, ask);
        const answerCalls = () =>
          bot.calls.slice(before).filter((c) =>
            ["sendMessage", "editMessageText"].includes(c.method) &&
            String(c.body.chat_id) === String(OWNER)
          );
        await bot.until("the answer", () => answerCalls().some((c) => c.body.text === answer));
        // Past the chat's edit rate: an edit still to come would show by now.
        await new Promise((r) => setTimeout(r, 1_200));
        const calls = answerCalls();
        console.log(
          calls.map((c) => `${c.method} +${Math.round(c.at - bot.served.get(id)!)} ms`).join(", "),
        );
        assert.deepEqual(calls.map((c) => [c.method, c.body.text]), [["sendMessage", answer]]);
      }
      assert.equal(vendor.requests.filter((r) => r.path === "/v1/messages").length, 2);
    } finally {
      await hub.stop();
      await bot.stop();
      await vendor.close();
      await cleanup();
    }
  },
});
