/**
 * Where the keyboard's focus goes in the dashboard, in headless Chromium (issue 39, W12
 * and W16): a page change puts it on the new page's heading, not on `<body>`; a language
 * change leaves it on the language menu; the skip link speaks the page's language.
 */
import assert from "node:assert/strict";
import { startDashboardHub } from "../_hub_in_process.ts";
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
