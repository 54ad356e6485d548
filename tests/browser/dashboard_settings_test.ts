/**
 * The dashboard's Settings page in headless Chromium: a role edited with the CLI's
 * checks and exact sentences (nothing written when refused; comments and order kept
 * when saved), and a credential set through a form that never shows it again.
 */
import assert from "node:assert/strict";
import { loadConfig } from "@agent/hub/config";
import { resolvePaths } from "@agent/hub/base";
import { startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, launch, pageApi, ready, T, watch } from "../dashboard/_browser.ts";

Deno.test({
  name:
    "dashboard settings: a role edited with the CLI's checks and sentences, comments kept; a credential set without ever being shown",
  ...T,
  async fn() {
    await using hub = await startDashboardHub({ dotenv: "SEARCH_TOKEN=\n" });
    const toml = `${hub.home}/agent.toml`;
    const before = await Deno.readTextFile(toml);
    const comments = before.split("\n").filter((l) => l.trim().startsWith("#"));
    const browser = await launch();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const problems = watch(page);
      await page.goto(await hub.loginUrl());
      await ready(page);
      await page.goto(`${hub.base}/dashboard/#/settings`);
      await ready(page);
      const brain = "form[data-role='brain']";
      assert.equal(await page.inputValue(`${brain} input[name='provider']`), "fake");
      // A provider the CLI does not know: its sentence, and nothing written.
      await page.fill(`${brain} input[name='provider']`, "nope");
      await page.click(`${brain} button[type='submit']`);
      await page.waitForSelector("#settings-said.bad");
      const said = await page.textContent("#settings-said") ?? "";
      assert.equal(await Deno.readTextFile(toml), before);
      // The same text through the CLI's reader gives the same sentence.
      let cli = "";
      await Deno.writeTextFile(toml, before.replace('provider = "fake"', 'provider = "nope"'));
      try {
        await loadConfig(resolvePaths({ home: hub.home, env: {} }), { lang: "en" });
      } catch (error) {
        cli = (error as Error).message;
      } finally {
        await Deno.writeTextFile(toml, before);
      }
      assert.ok(cli !== "" && said === cli, `${said} / ${cli}`);
      // The page switched to Turkish: the hub answers in Turkish, as the CLI does with --lang tr.
      await page.selectOption("#lang", "tr");
      await ready(page);
      await page.fill(`${brain} input[name='provider']`, "nope");
      await page.click(`${brain} button[type='submit']`);
      await page.waitForSelector("#settings-said.bad");
      await Deno.writeTextFile(toml, before.replace('provider = "fake"', 'provider = "nope"'));
      let cliTr = "";
      try {
        await loadConfig(resolvePaths({ home: hub.home, env: {} }), { lang: "tr" });
      } catch (error) {
        cliTr = (error as Error).message;
      } finally {
        await Deno.writeTextFile(toml, before);
      }
      assert.equal(await page.textContent("#settings-said"), cliTr);
      assert.notEqual(cliTr, cli);
      await page.selectOption("#lang", "en");
      await ready(page);
      // A good budget: written in place, comments and order kept.
      await page.fill(`${brain} input[name='provider']`, "fake");
      await page.fill(`${brain} input[name='budget_usd']`, "20");
      await page.click(`${brain} button[type='submit']`);
      await page.waitForFunction(() =>
        document.getElementById("settings-said")?.textContent ===
          "brain saved; the hub uses it now."
      );
      const after = await Deno.readTextFile(toml);
      assert.deepEqual(after.split("\n").filter((l) => l.trim().startsWith("#")), comments);
      assert.match(after, /\[models\.roles\.brain\.budget\]\nusd = 20\n/);
      assert.equal(after.split("\n").length, before.split("\n").length);

      // The credential: not set, then set through the form, never shown.
      const secret = "tok-\u00e7-SECRET-9f3a";
      const row = "form[data-secret='SEARCH_TOKEN']";
      assert.match(await page.textContent(row) ?? "", /not set/);
      await page.fill(`${row} input[type='password']`, secret);
      await page.click(`${row} button[type='submit']`);
      await page.waitForFunction(() =>
        /SEARCH_TOKEN saved to/.test(document.getElementById("settings-said")?.textContent ?? "")
      );
      await page.waitForFunction(() =>
        /\bset\b/.test(
          document.querySelector("form[data-secret='SEARCH_TOKEN'] .tag")?.textContent ?? "",
        )
      );
      assert.equal(await page.inputValue(`${row} input[type='password']`), "");
      assert.ok(!(await page.content()).includes(secret), "the value is nowhere in the page");
      const listed = (await pageApi(page, "settings")).text;
      assert.ok(!listed.includes(secret));
      assert.match(await Deno.readTextFile(`${hub.home}/.env`), /^SEARCH_TOKEN=/m);
      await page.screenshot({ path: `${ARTIFACTS}settings-desktop.png`, fullPage: true });
      // The refused save above is a 400 the browser notes; nothing else may be.
      assert.deepEqual(problems.filter((p) => !p.includes("status of 400")), []);
    } finally {
      await browser.close();
    }
  },
});
