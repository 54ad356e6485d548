/**
 * The Jobs page's Pause all and Resume all in headless Chromium over a real hub (issue
 * 39, W10): after Pause all every row says it is paused; Resume all lifts that and only
 * that, a job paused on its own staying paused (in the store too); a paused row's reason
 * reads as words, not as red code type, and on a phone each value stays beside its label
 * (W17). Desktop and phone, en and tr, light and dark.
 */
import assert from "node:assert/strict";
import { resolvePaths } from "@agent/hub/base";
import { loadConfig } from "@agent/hub/config";
import { addJob, type JobsScope, listJobs } from "@agent/hub/jobs";
import { startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, launch, signedIn, T, useTheme } from "../dashboard/_browser.ts";

Deno.test({
  name: "dashboard jobs: Pause all shows on every row; Resume all keeps a job's own pause",
  ...T,
  async fn() {
    await using hub = await startDashboardHub();
    const paths = resolvePaths({ home: hub.home, env: {} });
    const scope: JobsScope = { paths, config: await loadConfig(paths, { lang: "en" }), lang: "en" };
    for (const name of ["morning", "weekly-report"]) {
      await addJob(scope, {
        name,
        schedule: "0 0 8 * * *",
        prompt: "Say good morning.",
        deliver: "none",
      });
    }
    const browser = await launch();
    try {
      const { page, problems } = await signedIn(browser, await hub.loginUrl(), {
        viewport: { width: 1280, height: 800 },
        view: "jobs",
      });
      const status = (job: string) =>
        page.$eval(`tr[data-job='${job}'] td[data-status]`, (td) => ({
          state: (td as HTMLElement).dataset.status,
          text: td.textContent,
        }));
      await page.click("tr[data-job='weekly-report'] button[data-action='pause']");
      await page.waitForSelector("tr[data-job='weekly-report'] button[data-action='resume']");
      await page.click("#pause-all");
      await page.waitForSelector("#all-paused");
      assert.deepEqual(await status("morning"), { state: "paused-all", text: "paused: Pause all" });
      assert.deepEqual(await status("weekly-report"), { state: "paused", text: "paused: by you" });
      const look = await page.$eval("tr[data-job='morning'] .job-paused", (el) => {
        const style = getComputedStyle(el);
        return { font: style.fontFamily, color: style.color };
      });
      assert.doesNotMatch(look.font, /mono/, "a reason in words, not code type");
      assert.notEqual(look.color, "rgb(207, 34, 46)", "not the error red");
      await page.screenshot({ path: `${ARTIFACTS}jobs-paused-all-desktop.png`, fullPage: true });
      await page.click("#resume-all");
      await page.waitForFunction(() => document.getElementById("all-paused") === null);
      assert.equal(
        await page.textContent("#jobs-said"),
        "Pause all is lifted; these jobs stay paused on their own until you resume each: weekly-report.",
      );
      assert.deepEqual(await status("morning"), { state: "active", text: "active" });
      assert.deepEqual(await status("weekly-report"), { state: "paused", text: "paused: by you" });
      const listed = await listJobs(scope);
      assert.equal(listed.all_paused, false);
      assert.equal(listed.jobs.find((j) => j.name === "weekly-report")?.paused, "owner");
      // Turkish, dark, on a phone.
      await page.click("#pause-all");
      await page.waitForSelector("#all-paused");
      await page.setViewportSize({ width: 390, height: 844 });
      await page.selectOption("#lang", "tr");
      await useTheme(page, "dark");
      await page.waitForSelector("#all-paused");
      assert.equal((await status("morning")).text, "duraklatıldı: Tümünü duraklat");
      // Every value stays in its column beside its label, however long (W17).
      const dropped = await page.$$eval(
        "table.jobs td[data-label]",
        (cells) =>
          cells.flatMap((td) => {
            const range = document.createRange();
            range.selectNodeContents(td);
            const left = Math.min(...[...range.getClientRects()].map((r) => r.left));
            const column = td.getBoundingClientRect().left + 8 * 16;
            return left < column - 1 ? [`${td.dataset.label}: ${td.textContent}`] : [];
          }),
      );
      assert.deepEqual(dropped, []);
      await page.screenshot({
        path: `${ARTIFACTS}jobs-paused-all-phone-dark-tr.png`,
        fullPage: true,
      });
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  },
});
