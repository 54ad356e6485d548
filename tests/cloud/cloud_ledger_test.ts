/**
 * The cloud ledger on workerd: a cloud spine, `agent cloud run` as the container, a
 * priced fake brain whose calls are appended to the spine's `ledger` table. The brain
 * is stopped and started again in an empty home (a new container, its disk gone): its
 * budget is still spent, the owner is told so, and `agent spend --cloud` on the laptop
 * reports the cloud ledger. The routes' own checks (idempotent by call id, bad rows,
 * the bearer token, local mode) are in `tests/spine/ledger_routes_test.ts`.
 */
import assert from "node:assert/strict";
import { messengerWebhookSecret } from "@agent/net";
import { Ledger, periodBounds } from "@agent/hub/money";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { hub } from "../spine/_fixtures.ts";
import { startBotServer } from "../messenger/_bot_server.ts";
import { OWNER, textsIn } from "../messenger/_hub.ts";
import { CLOUD_TOKEN, cloudHome, cloudSpine, pushHome, runBrain } from "./_cloud.ts";
import { until } from "../_poll.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };
const CALL_USD = 0.018; // 1,000 in × $3/M + 1,000 out × $15/M

Deno.test({
  name: "cloud ledger: every call reaches the spine, and a restarted brain keeps its budget",
  ...SLOW,
  async fn() {
    const { spine, brainPort } = await cloudSpine();
    const bot = startBotServer();
    let brain: Awaited<ReturnType<typeof runBrain>> | undefined;
    try {
      const home = await cloudHome(spine, { replies: ["Counted."] });
      // A priced fake brain that spends $0.018 a call, with a cap two calls reach.
      let toml = await Deno.readTextFile(`${home}/agent.toml`);
      toml = toml.replace(
        "[models.roles.brain.budget]\nusd = 15\n",
        "[models.roles.brain.budget]\nusd = 0.03\n",
      ).replace(
        /(\[models\.roles\.brain\]\nprovider = "fake"\nmodel_id = "fake-brain"\n)params = \{ replies = (\[[^\]]*\]) \}\n/,
        "$1params = { replies = $2, usage = { input = 1000, output = 1000 } }\n",
      ) + "\n[models.prices.fake-brain]\ninput = 3.0\noutput = 15.0\n";
      assert.match(toml, /usage = \{ input = 1000/);
      assert.match(toml, /usd = 0\.03\n/);
      await Deno.writeTextFile(`${home}/agent.toml`, toml);
      await pushHome(home);
      const brainEnv = {
        AGENT_SPINE_URL: spine.url,
        AGENT_SPINE_TOKEN: CLOUD_TOKEN,
        MESSENGER_BOT_TOKEN: bot.token,
        MESSENGER_ALLOWED_CHAT_IDS: String(OWNER),
        MESSENGER_API_ROOT: bot.apiRoot,
      };
      const secret = await messengerWebhookSecret(CLOUD_TOKEN);
      let updateId = 0;
      const say = async (text: string) => {
        updateId++;
        const res = await fetch(`${spine.url}/messenger/webhook`, {
          method: "POST",
          headers: { "x-telegram-bot-api-secret-token": secret },
          body: JSON.stringify({
            update_id: updateId,
            message: {
              message_id: updateId,
              date: Math.floor(Date.now() / 1000),
              chat: { id: OWNER, type: "private", first_name: "Owner" },
              from: { id: OWNER, is_bot: false, first_name: "Owner" },
              text,
            },
          }),
        });
        assert.equal(res.status, 200);
        await res.body?.cancel();
      };
      const cloudRows = async () =>
        (await hub(spine.url, CLOUD_TOKEN, "/hub/ledger")).body.rows as {
          role: string;
          usd: number;
          call_id: string;
        }[];

      // First container: two answers, two rows in the cloud ledger.
      const first = await tempHome();
      brain = await runBrain(first, brainPort, brainEnv);
      await say("one");
      await bot.until("the first answer", () => textsIn(bot, OWNER).some((t) => t === "Counted."));
      await say("two");
      await bot.until(
        "the second answer",
        () =>
          textsIn(bot, OWNER).filter((t) => t.startsWith("Okay.") || t === "Counted.").length >= 2,
      );
      const rows = await until("two cloud ledger rows", async () => {
        const rows = await cloudRows();
        return rows.length >= 2 && rows;
      }).catch(async () => await cloudRows());
      assert.equal(rows.length, 2, JSON.stringify(rows));
      assert.ok(rows.every((r) => r.role === "brain" && Math.abs(r.usd - CALL_USD) < 1e-9));
      const stopped = await brain.stop();
      brain = undefined;
      assert.equal(stopped.code, 0, stopped.stderr);

      // Second container, empty disk: the budget is read back before any call.
      const second = await tempHome();
      brain = await runBrain(second, brainPort, brainEnv);
      const local = Ledger.openExisting(`${second}/data/spend.sqlite3`);
      assert.ok(local, "the new container's ledger was filled from the cloud");
      const month = periodBounds("month", Date.now()).sinceMs;
      const spent = local.spent("brain", month);
      local.close();
      assert.ok(Math.abs(spent.usd - 2 * CALL_USD) < 1e-9, `spent $${spent.usd}`);
      await say("three");
      await bot.until(
        "the spent-budget notice",
        () => textsIn(bot, OWNER).some((t) => t.includes("brain budget spent")),
      );
      const stoppedAgain = await brain.stop();
      brain = undefined;
      assert.equal(stoppedAgain.code, 0, stoppedAgain.stderr);

      // The laptop reads the cloud ledger.
      const report = await agent(["--home", home, "spend", "--cloud", "--json"]);
      assert.equal(report.code, 0, report.stderr);
      const brainSpend = JSON.parse(report.stdout).brain;
      assert.ok(Math.abs(brainSpend.spent_usd - 2 * CALL_USD) < 1e-6, report.stdout);
      assert.equal(brainSpend.exhausted, true);
      const text = await agent(["--home", home, "spend", "--cloud"]);
      assert.match(text.stdout, /^brain fake \$0\.036 of \$0\.03 this month, resets .* · SPENT/m);
    } finally {
      await brain?.stop();
      await bot.stop();
      await spine.stop();
      await cleanup();
    }
  },
});
