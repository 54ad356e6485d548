/**
 * Settings apply without a restart, in a real hub: a role's model changed on the
 * Settings page answers the very next chat turn (the answer's model line says so), a
 * budget saved there shows on the overview at once; `POST /config/reload` on the
 * control API (what a command that edited `agent.toml` calls) applies roles and names
 * the sections that wait for a restart, and refuses a bad file with the CLI's sentence.
 */
import assert from "node:assert/strict";
import { readHubToken } from "@agent/hub";
import { resolvePaths } from "@agent/hub/base";
import { loadConfig } from "@agent/hub/config";
import { startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, launch, ready, T, watch } from "../dashboard/_browser.ts";

Deno.test({
  name:
    "dashboard settings apply at once: a new model answers the next turn, a new budget shows, POST /config/reload",
  ...T,
  async fn() {
    await using hub = await startDashboardHub({ replies: ["One.", "Two.", "Three."] });
    const paths = resolvePaths({ home: hub.home, env: {} });
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const problems = watch(page);
      await page.goto(await hub.loginUrl());
      await ready(page);
      const turn = async (text: string, n: number) => {
        await page.fill("#message", text);
        await page.keyboard.press("Enter");
        await page.waitForFunction(
          (n) => document.querySelectorAll(".msg.assistant .meta").length >= n,
          n,
          { timeout: 15_000 },
        );
        return await page.locator(".msg.assistant .meta").nth(n - 1).textContent() ?? "";
      };

      // A turn on the model the hub started with.
      await page.goto(`${hub.base}/dashboard/#/conversations`);
      await ready(page);
      assert.match(await turn("first", 1), /^fake-brain · /);
      const session = new URL(page.url()).hash;

      // The Settings page says roles apply at once; a new model and a budget.
      await page.goto(`${hub.base}/dashboard/#/settings`);
      await ready(page);
      assert.match(await page.textContent("main") ?? "", /apply at once/);
      const brain = "form[data-role='brain']";
      await page.fill(`${brain} input[name='model_id']`, "fake-brain-live");
      await page.fill(`${brain} input[name='budget_usd']`, "7");
      await page.selectOption(`${brain} select[name='budget_period']`, "month");
      await page.click(`${brain} button[type='submit']`);
      await page.waitForFunction(
        (sel) =>
          document.querySelector(`${sel} .form-said`)?.textContent ===
            "brain saved; the hub uses it now.",
        brain,
      );
      await page.screenshot({ path: `${ARTIFACTS}settings-live-desktop.png`, fullPage: true });

      // The overview shows the new cap without a restart.
      await page.goto(`${hub.base}/dashboard/#/overview`);
      await ready(page);
      assert.match(await page.textContent("main") ?? "", /brain: \$\d+\.\d\d of \$7\.00/);

      // The same conversation's next turn is answered by the new model.
      await page.goto(`${hub.base}/dashboard/${session}`);
      await ready(page);
      await page.waitForFunction(() => document.querySelectorAll(".msg.assistant").length >= 1);
      const before = await page.locator(".msg.assistant .meta").count();
      assert.match(await turn("second", before + 1), /^fake-brain-live · /);

      // The control API's reload: roles applied, another section named for a restart.
      const token = await readHubToken(paths.hubTokenFile);
      const reload = async (auth = true) => {
        const res = await fetch(`${hub.base}/config/reload`, {
          method: "POST",
          headers: auth ? { authorization: `Bearer ${token}` } : {},
        });
        return [res.status, await res.json()] as const;
      };
      const text = await Deno.readTextFile(paths.configFile);
      await Deno.writeTextFile(
        paths.configFile,
        text.replace('model_id = "fake-brain-live"', 'model_id = "fake-brain-cli"')
          .replace('digest = "batched"', 'digest = "daily"'),
      );
      assert.deepEqual(await reload(), [200, { applied: ["models"], restart: ["net"] }]);
      assert.match(await turn("third", before + 2), /^fake-brain-cli · /);
      assert.equal((await reload(false))[0], 401);
      // A bad file: the CLI's sentence, nothing applied.
      await Deno.writeTextFile(
        paths.configFile,
        text.replace('provider = "fake"', 'provider = "x"'),
      );
      const cli = await loadConfig(paths, { lang: "en" }).then(() => "", (e) => e.message);
      assert.deepEqual(await reload(), [400, { error: "bad_request", detail: cli }]);
      await Deno.writeTextFile(paths.configFile, text);
      assert.deepEqual(problems, []);
      await context.close();
    } finally {
      await browser.close();
    }
  },
});
