/**
 * The dashboard beside the messenger, on a hub (in the test's process, as `agent hub
 * run` starts it: the process is not the point here; `tests/messenger/` runs it as one)
 * and the loopback Bot API server: an approval asked in the owner's Telegram chat shows
 * on the dashboard's Approvals page, is decided there first, and the messenger's
 * message is edited to say so (its buttons gone) while the answer goes on; the
 * overview shows the messenger's line.
 */
import assert from "node:assert/strict";
import { CHROMIUM, launch } from "../dashboard/_browser.ts";
import { startBotServer } from "../messenger/_bot_server.ts";
import { messengerHome, OWNER, runHubHere, textsIn } from "../messenger/_hub.ts";
import { cleanup } from "../cli/_run.ts";

Deno.test({
  name:
    "dashboard + messenger: a messenger approval decided on the dashboard is edited in Telegram",
  ignore: CHROMIUM === undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const bot = startBotServer();
    const { home, port } = await messengerHome(bot, {
      replies: ['/tool write_note {"name":"tg","text":"from the phone"}', "Saved it."],
    });
    const hub = await runHubHere(home, bot);
    const browser = await launch();
    try {
      bot.pushMessage(OWNER, "please save a note");
      const asked = () =>
        [...bot.messages.values()].find((m) => m.chatId === OWNER && m.replyMarkup !== undefined);
      await bot.until("the approval in the messenger", () => asked() !== undefined, 20_000);
      const ask = asked()!;

      const token = (await Deno.readTextFile(`${home}/data/hub.token`)).trim();
      const res = await fetch(`http://127.0.0.1:${port}/dashboard/code`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
      });
      const { code } = await res.json() as { code: string };
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`http://127.0.0.1:${port}/dashboard/#code=${code}`);
      await page.waitForSelector("main[data-ready='true']");
      assert.match(await page.textContent("main") ?? "", /Messenger: polling \(polling\)/);
      await page.goto(`http://127.0.0.1:${port}/dashboard/#/approvals`);
      await page.waitForSelector("[data-approval] button[data-decision='once']");
      assert.match(
        await page.textContent("[data-approval]") ?? "",
        new RegExp(`messenger:${OWNER}`),
      );
      await page.click("[data-approval] button[data-decision='once']");
      await page.waitForSelector("[data-approval] .decided");

      // The messenger's message no longer offers the buttons, and the answer arrives.
      await bot.until("the approval edited in the messenger", () => {
        const now = bot.messages.get(`${OWNER}:${ask.messageId}`);
        const rows = (now?.replyMarkup as { inline_keyboard?: unknown[] } | undefined)
          ?.inline_keyboard;
        return now !== undefined && (rows === undefined || rows.length === 0);
      }, 20_000);
      await bot.until(
        "the answer",
        () => textsIn(bot, OWNER).some((t) => t.includes("Saved it.")),
        20_000,
      );
      await page.close();
    } finally {
      await browser.close();
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});
