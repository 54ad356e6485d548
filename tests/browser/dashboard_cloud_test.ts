/**
 * The dashboard in cloud mode in headless Chromium: `agent dashboard --cloud`'s address
 * opened on a cloud spine on workerd whose brain is an `agent cloud run` process; the
 * code traded for a signed session token kept in the tab's `sessionStorage` (no cookie);
 * the Overview and Spend pages drawn from the brain through the
 * spine; a chat line answered live over the event stream through the spine; no console
 * error or CSP violation; a screenshot kept under `tests/dashboard/artifacts/`.
 */
import assert from "node:assert/strict";
import { agent } from "../cli/_run.ts";
import { ARTIFACTS, launch, pageApi, ready, SESSION_KEY, T, watch } from "../dashboard/_browser.ts";
import { startCloudDashboard } from "../cloud/_dashboard.ts";

const REPLY = "Answered by the brain in the cloud.";

Deno.test({
  name:
    "cloud dashboard in Chromium: signed in through the spine, pages drawn, a chat answered live",
  ...T,
  async fn() {
    await using cd = await startCloudDashboard([REPLY]);
    const run = await agent(["--home", cd.home, "dashboard", "--cloud", "--no-open"]);
    assert.equal(run.code, 0, run.stderr);
    const url = run.stdout.split("\n").find((line) => line.includes("/hub/dashboard/#code="));
    assert.ok(url, run.stdout);
    const browser = await launch();
    try {
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const problems = watch(page);
      await page.goto(url);
      await ready(page);
      assert.equal(new URL(page.url()).hash, "#/overview");
      assert.deepEqual(await context.cookies(), []);
      const token = await page.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY);
      assert.match(token ?? "", /^[\w-]{43}\.[0-9a-z]+\.[\w-]{43}$/);
      assert.match(await page.textContent("main") ?? "", /Budgets/);

      // A line typed in the browser: the answer streams back through the spine.
      await page.goto(`${cd.spine.url}/hub/dashboard/#/conversations`);
      await ready(page);
      await page.fill("#message", "hello from the browser");
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        (reply) => document.querySelector(".transcript")?.textContent?.includes(reply),
        REPLY,
        { timeout: 20_000 },
      );

      await page.goto(`${cd.spine.url}/hub/dashboard/#/spend/day`);
      await ready(page);
      await page.waitForFunction(() => document.querySelectorAll(".chart canvas").length >= 1);
      const spend = await page.textContent("main") ?? "";
      assert.match(spend, /Spend today: \$\d+\.\d\d in 1 call/);
      const csv = (await pageApi(page, "spend.csv?by=channel&period=day")).text;
      assert.match(csv, /^channel,usd,calls,/);
      assert.match(csv, /\r\nweb,/);

      await page.goto(`${cd.spine.url}/hub/dashboard/#/overview`);
      await ready(page);
      await page.screenshot({ path: `${ARTIFACTS}cloud-overview-desktop.png`, fullPage: true });
      assert.deepEqual(problems, []);

      // Another browser profile with the same, used address: refused, no session.
      const other = await browser.newContext();
      const reused = await other.newPage();
      await reused.goto(url);
      await reused.waitForSelector("[role=alert]");
      assert.match(
        await reused.textContent("[role=alert]") ?? "",
        /already used or has expired.*Run agent dashboard --cloud again/,
      );
      assert.equal(await reused.textContent("[role=alert] code"), "agent dashboard --cloud");
      assert.equal(await reused.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY), null);
      assert.equal((await pageApi(reused, "overview")).status, 401);
      await other.close();
      await context.close();
    } finally {
      await browser.close();
    }
  },
});
