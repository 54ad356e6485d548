/**
 * The dashboard's Settings page in headless Chromium: a role edited, a bad value refused
 * beside its field in the page's language (nothing written; comments and order kept
 * when saved), and a credential set through a form that never shows it again.
 */
import assert from "node:assert/strict";
import { startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, launch, pageApi, ready, T, watch } from "../dashboard/_browser.ts";

Deno.test({
  name:
    "dashboard settings: a role refused beside its field in the page's language, saved with comments kept; a credential set without ever being shown",
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
      // A provider the CLI does not know: refused beside the field (the field sentences have
      // their own test), and nothing written.
      await page.fill(`${brain} input[name='provider']`, "nope");
      await page.click(`${brain} button[type='submit']`);
      await page.waitForSelector(`${brain} input[name='provider'][aria-invalid='true']`);
      assert.match(await page.textContent(`#r-brain-provider-error`) ?? "", /^Choose one of: /);
      assert.equal(await Deno.readTextFile(toml), before);
      // The page switched to Turkish: the hub answers in Turkish, as the CLI does with --lang tr.
      await page.selectOption("#lang", "tr");
      await ready(page);
      await page.fill(`${brain} input[name='provider']`, "nope");
      await page.click(`${brain} button[type='submit']`);
      await page.waitForSelector(`${brain} input[name='provider'][aria-invalid='true']`);
      assert.match(await page.textContent(`#r-brain-provider-error`) ?? "", /^Şunlardan birini/);
      await page.selectOption("#lang", "en");
      await ready(page);
      // A good budget: written in place, comments and order kept.
      await page.fill(`${brain} input[name='provider']`, "fake");
      await page.fill(`${brain} input[name='budget_usd']`, "20");
      await page.click(`${brain} button[type='submit']`);
      await page.waitForFunction(
        (sel) =>
          document.querySelector(`${sel} .form-said`)?.textContent ===
            "brain saved; the hub uses it now.",
        brain,
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
        /SEARCH_TOKEN saved to/.test(
          document.querySelector("form[data-secret='SEARCH_TOKEN'] .form-said")?.textContent ?? "",
        )
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
