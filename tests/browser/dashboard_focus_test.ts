/**
 * Where the keyboard's focus goes in the dashboard, in headless Chromium (issue 39, W12
 * and W16): a page change puts it on the new page's heading, not on `<body>`; a language
 * change leaves it on the language menu; the skip link speaks the page's language; the
 * Spend page's Period select moves its choice with the arrow keys and shows it on Enter, and
 * its charts carry a text alternative with their figures.
 */
import assert from "node:assert/strict";
import { seededCalls, startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, launch, ready, signedIn, T } from "../dashboard/_browser.ts";

Deno.test({
  name: "dashboard focus: a page change focuses its heading; a language change keeps the menu",
  ...T,
  async fn() {
    await using hub = await startDashboardHub();
    const browser = await launch();
    try {
      const { page, problems } = await signedIn(browser, await hub.loginUrl(), {
        viewport: { width: 390, height: 844 },
      });
      const focused = () =>
        page.evaluate(() => {
          const el = document.activeElement;
          return `${el?.tagName.toLowerCase()}:${el?.textContent?.trim().slice(0, 40)}`;
        });
      for (const [link, heading] of [["Jobs", "Jobs"], ["Settings", "Settings"]] as const) {
        await page.click(`nav a:text-is('${link}')`);
        await page.waitForFunction(
          (h) => document.querySelector("main h1")?.textContent === h,
          heading,
        );
        await page.waitForFunction(() => document.activeElement?.tagName === "H1");
        assert.equal(await focused(), `h1:${heading}`);
      }
      // Moved by the keyboard: the next Tab goes on from the page, not from the top.
      await page.keyboard.press("Tab");
      assert.ok(
        await page.evaluate(() => document.querySelector("main")!.contains(document.activeElement)),
        await focused(),
      );
      await page.selectOption("#lang", "tr");
      await ready(page);
      await page.waitForFunction(() => document.activeElement?.id === "lang");
      assert.equal(await page.textContent("a.skip"), "İçeriğe geç");
      await page.click("nav a:text-is('Ağ')");
      await page.waitForFunction(() => document.activeElement?.tagName === "H1");
      assert.equal(await focused(), "h1:Ağ");
      await page.screenshot({ path: `${ARTIFACTS}focus-heading-phone-tr.png` });
      await page.click("nav a:text-is('Genel bakış')");
      await page.waitForFunction(() => document.activeElement?.tagName === "H1");
      await page.screenshot({ path: `${ARTIFACTS}overview-phone-tr.png`, fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "dashboard spend: arrows move the Period choice, Enter shows it; charts say their figures",
  ...T,
  async fn() {
    await using hub = await startDashboardHub({ calls: seededCalls(Date.now()) });
    const browser = await launch();
    try {
      const { page, problems } = await signedIn(browser, await hub.loginUrl());
      await page.goto(`${hub.base}/dashboard/#/spend/month`);
      await ready(page);
      await page.waitForSelector("#period");
      await page.waitForSelector("main .chart[role='img']");
      await page.focus("#period");
      await page.keyboard.press("ArrowUp");
      await page.keyboard.press("ArrowUp");
      await page.waitForTimeout(300);
      // The choice moved twice; the page did not (each arrow navigated before).
      assert.equal(await page.inputValue("#period"), "day");
      assert.match(page.url(), /#\/spend\/month$/);
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => location.hash === "#/spend/day");
      // A choice with the mouse (selectOption) shows at once.
      await page.waitForSelector("#period");
      await page.selectOption("#period", "week");
      await page.waitForFunction(() => location.hash === "#/spend/week");
      await page.waitForSelector("main .chart[role='img']");
      const alts = await page.$$eval(
        "main .chart[role='img']",
        (l) => l.map((e) => e.getAttribute("aria-label") ?? ""),
      );
      assert.ok(alts.length >= 2, alts.join(" | "));
      assert.ok(
        alts.some((a) =>
          /: \d+ bars, \$[\d.]+ in all; the highest is .+ at \$[\d.]+\. The table/.test(a)
        ),
        alts.join(" | "),
      );
      assert.ok(alts.some((a) => /: brain \$[\d.]+/.test(a)), alts.join(" | "));
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  },
});
