/**
 * The messenger of a Turkish hub (issue 39 W16): a budget warning's dollars read with the
 * Turkish decimal comma, and an owner event an English process wrote (its sentence kept
 * as a code) is told in Turkish; an old event with only its English sentence is told as
 * it was written.
 */
import assert from "node:assert/strict";
import { Ledger } from "@agent/hub/money";
import { cleanup } from "../cli/_run.ts";
import { seededCalls } from "../_hub_in_process.ts";
import { startBotServer } from "./_bot_server.ts";
import { messengerHome, OWNER, runHubHere, textsIn } from "./_hub.ts";

Deno.test({
  name: "messenger in Turkish: amounts with a decimal comma, owner events in Turkish",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { lang: "tr" });
    {
      using ledger = Ledger.open(`${home}/data/spend.sqlite3`);
      const [call] = seededCalls(Date.now() - 1000, 1);
      ledger.recordMany([{ ...call!, role: "brain", model_id: "fake-brain", usd: 13 }]);
    }
    const hub = await runHubHere(home, bot);
    try {
      await bot.until("the warning", () => textsIn(bot, OWNER).length >= 1, 15_000);
      const warning = textsIn(bot, OWNER).find((x) => x.startsWith("Bütçe uyarısı"));
      assert.match(warning ?? "", /^Bütçe uyarısı: brain bu ay \$15,00 sınırının \$13,00 kadarını/);

      // What an English process (`agent jobs run` on an English home) wrote: the sentence
      // in English, and its code; then a row from before codes existed.
      const english =
        "Job news is paused: today's spend $0.014 and one more run would pass its max_usd_per_day of $0.02.";
      // Ids after the warning's, as another process's writer picks them.
      const id = (n: number) => `${Date.now() + 1000}-00000${n}`;
      const lines = [
        {
          event_id: id(1),
          ts: Math.floor(Date.now() / 1000),
          type: "job.notice",
          job: "news",
          text: english,
          said: {
            code: "jobs.ceiling_day",
            vars: { name: "news" },
            usd: { spent: 0.014, cap: 0.02 },
          },
        },
        {
          event_id: id(2),
          ts: Math.floor(Date.now() / 1000),
          type: "job.notice",
          job: "old",
          text: "Old sentence.",
        },
      ];
      await Deno.writeTextFile(
        `${home}/data/net/events.jsonl`,
        lines.map((l) => JSON.stringify(l) + "\n").join(""),
        { append: true },
      );
      await bot.until(
        "both notices",
        () => textsIn(bot, OWNER).some((x) => x === "Old sentence."),
        15_000,
      );
      const texts = textsIn(bot, OWNER);
      const notice = texts.find((x) => x.startsWith("news görevi"));
      assert.match(
        notice ?? texts.join("\n"),
        /^news görevi duraklatıldı: bugünkü harcama \$0,014 ve bir çalışma daha max_usd_per_day sınırı olan \$0,02 değerini aşar\./,
      );
      assert.ok(!texts.includes(english), texts.join("\n"));
      for (const text of texts) {
        assert.doesNotMatch(text, /\$\d+\.\d/, `no dollar amount with a decimal point: ${text}`);
      }
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});
