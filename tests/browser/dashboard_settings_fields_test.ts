/**
 * The Settings page's fields in headless Chromium, on a phone and a desktop: a refused
 * value is said beside its field (marked invalid, focused, in view), in the form's words
 * and in the page's language; an emptied budget removes the cap; an address variable
 * refuses what is not an address; an optional variable is not shown as a problem.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, launch, ready, signedIn, T, useTheme } from "../dashboard/_browser.ts";

const BRAIN = "form[data-role='brain']";

/** What the page shows about a field: its sentence, its mark, and whether it is in view. */
async function fieldState(page: Page, selector: string) {
  return await page.evaluate((sel) => {
    const control = document.querySelector<HTMLElement>(sel)!;
    const said = document.getElementById(
      (control.getAttribute("aria-describedby") ?? "").split(" ")[0]!,
    );
    const box = said?.getBoundingClientRect();
    return {
      invalid: control.getAttribute("aria-invalid"),
      focused: document.activeElement === control,
      said: said?.textContent ?? "",
      inView: box !== undefined && box.top >= 0 && box.bottom <= innerHeight,
      top: document.getElementById("settings-said")?.textContent ?? "",
    };
  }, selector);
}

Deno.test({
  name:
    "dashboard settings: a refused value is said beside its field, marked and focused, on a phone, in en and tr",
  ...T,
  async fn() {
    await using hub = await startDashboardHub();
    const toml = `${hub.home}/agent.toml`;
    const before = await Deno.readTextFile(toml);
    const browser = await launch();
    try {
      const { page, problems } = await signedIn(browser, await hub.loginUrl(), {
        viewport: { width: 390, height: 844 },
        view: "settings",
      });
      await page.fill(`${BRAIN} input[name='budget_usd']`, "a lot");
      await page.click(`${BRAIN} button[type='submit']`);
      await page.waitForSelector(`${BRAIN} input[name='budget_usd'][aria-invalid='true']`);
      const usd = await fieldState(page, `${BRAIN} input[name='budget_usd']`);
      assert.equal(usd.invalid, "true");
      assert.ok(usd.focused, "the refused field has the focus");
      assert.ok(usd.inView, "its sentence is on the screen");
      assert.match(usd.said, /^Enter an amount above 0 in dollars/);
      assert.doesNotMatch(usd.said, /agent\.toml|\[models/, "the form's words, not the file's");
      assert.equal(usd.top, "", "nothing at the page's top");
      assert.equal(await Deno.readTextFile(toml), before);
      await page.screenshot({ path: `${ARTIFACTS}settings-field-phone-light-en.png` });
      // Correcting it clears the mark.
      await page.fill(`${BRAIN} input[name='budget_usd']`, "16");
      await page.click(`${BRAIN} button[type='submit']`);
      await page.waitForFunction(
        (sel) =>
          document.querySelector(`${sel} .form-said`)?.textContent ===
            "brain saved; the hub uses it now.",
        BRAIN,
      );
      assert.equal(
        await page.getAttribute(`${BRAIN} input[name='budget_usd']`, "aria-invalid"),
        null,
      );
      // In Turkish, dark: the provider refused beside its own field.
      await page.selectOption("#lang", "tr");
      await useTheme(page, "dark");
      await page.fill(`${BRAIN} input[name='provider']`, "nope");
      await page.click(`${BRAIN} button[type='submit']`);
      await page.waitForSelector(`${BRAIN} input[name='provider'][aria-invalid='true']`);
      const provider = await fieldState(page, `${BRAIN} input[name='provider']`);
      assert.ok(provider.focused && provider.inView);
      assert.match(provider.said, /^Şunlardan birini seçin: vendor-a, /);
      await page.screenshot({ path: `${ARTIFACTS}settings-field-phone-dark-tr.png` });
      assert.deepEqual(problems.filter((p) => !p.includes("status of 400")), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "dashboard settings: an emptied budget removes the role's cap and says so; a Turkish decimal comma is an amount",
  ...T,
  async fn() {
    await using hub = await startDashboardHub();
    const toml = `${hub.home}/agent.toml`;
    assert.match(await Deno.readTextFile(toml), /\[models\.roles\.brain\.budget\]\nusd = 15\n/);
    const browser = await launch();
    try {
      const { page, problems } = await signedIn(browser, await hub.loginUrl(), {
        viewport: { width: 1280, height: 800 },
        view: "settings",
      });
      await page.fill(`${BRAIN} input[name='budget_usd']`, "");
      await page.click(`${BRAIN} button[type='submit']`);
      await page.waitForFunction(
        (sel) =>
          /no budget now/.test(document.querySelector(`${sel} .form-said`)?.textContent ?? ""),
        BRAIN,
      );
      assert.equal(
        await page.textContent(`${BRAIN} .form-said`),
        "brain has no budget now: its calls are no longer capped.",
      );
      const after = await Deno.readTextFile(toml);
      assert.doesNotMatch(after, /\[models\.roles\.brain\.budget\]/);
      assert.doesNotMatch(after, /^usd = 15$/m);
      // Drawn again, the page agrees with the file.
      await page.reload();
      await ready(page);
      assert.equal(await page.inputValue(`${BRAIN} input[name='budget_usd']`), "");
      assert.equal(await page.inputValue(`${BRAIN} select[name='budget_period']`), "");
      await page.screenshot({ path: `${ARTIFACTS}settings-budget-cleared-desktop.png` });
      // An amount without a period is refused at the period.
      await page.fill(`${BRAIN} input[name='budget_usd']`, "9");
      await page.click(`${BRAIN} button[type='submit']`);
      await page.waitForSelector(`${BRAIN} select[name='budget_period'][aria-invalid='true']`);
      // In Turkish "2,5" is two and a half dollars.
      await page.selectOption("#lang", "tr");
      await ready(page);
      await page.fill(`${BRAIN} input[name='budget_usd']`, "2,5");
      await page.selectOption(`${BRAIN} select[name='budget_period']`, "week");
      assert.equal(
        await page.textContent(`${BRAIN} select[name='budget_period'] option:checked`),
        "haftalık",
      );
      await page.click(`${BRAIN} button[type='submit']`);
      await page.waitForFunction(
        (sel) => /kaydedildi/.test(document.querySelector(`${sel} .form-said`)?.textContent ?? ""),
        BRAIN,
      );
      assert.match(
        await Deno.readTextFile(toml),
        /\[models\.roles\.brain\.budget\]\nusd = 2\.5\nperiod = "week"\n/,
      );
      // Shown back the Turkish way (agent.toml keeps the machine's point).
      await page.reload();
      await ready(page);
      assert.equal(await page.inputValue(`${BRAIN} input[name='budget_usd']`), "2,5");
      assert.deepEqual(problems.filter((p) => !p.includes("status of 400")), []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "dashboard settings: an address variable refuses 'not a url' beside it; an optional variable is not red",
  ...T,
  async fn() {
    await using hub = await startDashboardHub({ dotenv: "AGENT_LOCAL_RUNTIME_URL=\n" });
    const browser = await launch();
    try {
      const { page, problems } = await signedIn(browser, await hub.loginUrl(), {
        viewport: { width: 390, height: 844 },
        view: "settings",
      });
      const row = "form[data-secret='AGENT_LOCAL_RUNTIME_URL']";
      const tag = await page.$eval(`${row} .tag`, (el) => ({
        text: el.textContent,
        color: getComputedStyle(el).color,
        bad: getComputedStyle(document.documentElement).getPropertyValue("--bad"),
      }));
      assert.equal(tag.text, "not set (optional)");
      assert.ok(!tag.color.includes("207, 34, 46"), `not red: ${tag.color}`);
      await page.fill(`${row} input[name='value']`, "not a url");
      await page.click(`${row} button[type='submit']`);
      await page.waitForSelector(`${row} input[aria-invalid='true']`);
      const state = await fieldState(page, `${row} input[name='value']`);
      assert.equal(
        state.said,
        "AGENT_LOCAL_RUNTIME_URL takes an address such as http://127.0.0.1:11434; nothing was saved.",
      );
      assert.ok(state.focused && state.inView, JSON.stringify(state));
      assert.doesNotMatch(await Deno.readTextFile(`${hub.home}/.env`), /not a url/);
      await page.screenshot({ path: `${ARTIFACTS}settings-url-phone-light-en.png` });
      await page.fill(`${row} input[name='value']`, "http://127.0.0.1:11434");
      await page.click(`${row} button[type='submit']`);
      await page.waitForFunction(() =>
        /saved to/.test(
          document.querySelector("form[data-secret='AGENT_LOCAL_RUNTIME_URL'] .form-said")
            ?.textContent ?? "",
        )
      );
      assert.match(
        await Deno.readTextFile(`${hub.home}/.env`),
        /^AGENT_LOCAL_RUNTIME_URL=http:\/\/127\.0\.0\.1:11434$/m,
      );
      assert.deepEqual(problems.filter((p) => !p.includes("status of 400")), []);
    } finally {
      await browser.close();
    }
  },
});
