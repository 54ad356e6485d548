/**
 * The dashboard's Jobs page in headless Chromium over a real hub (the fake model, the
 * job store, the owner-event bus): the jobs as `agent jobs list` gives them (next run
 * DD.MM.YYYY HH:MM, last outcome, spend), Pause / Resume and Pause all / Resume all
 * landing in the job store exactly as the commands do, Run now running the job as
 * `agent jobs run` does (its answer in the log), the page drawn again by `job.*` owner
 * events, the Spend page's breakdown and CSV by job, en and tr, light and dark, desktop
 * and phone screenshots, and axe-core.
 */
import assert from "node:assert/strict";
import { appendNetEvent } from "@agent/hub";
import { resolvePaths } from "@agent/hub/base";
import { loadConfig } from "@agent/hub/config";
import type { CallRecord } from "@agent/hub/money";
import { addJob, formatIn, type JobsScope, listJobs, pauseJobs } from "@agent/hub/jobs";
import { seededCalls, startDashboardHub } from "../_hub_in_process.ts";
import {
  ARTIFACTS,
  assertOneTheme,
  launch,
  pageApi,
  ready,
  T,
  useTheme,
  watch,
} from "../dashboard/_browser.ts";
import { seriousViolations } from "../dashboard/_axe.ts";

/** Calls two jobs made this month (`job-<name>-YYYYMMDD-HHMMSS-xxxx` sessions). */
function jobCalls(nowMs: number): CallRecord[] {
  return [0, 1, 2].map((i) => ({
    ts: nowMs - i * 60_000,
    role: "fast",
    provider: "fake",
    model_id: "fake-fast",
    input_tokens: 200,
    output_tokens: 40,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    usd: 0.02,
    channel: "job",
    session_id: i < 2
      ? `job-morning-20260101-050000-00a${i}`
      : "job-weekly-report-20260101-060000-0b0b",
    peer: null,
  }));
}

Deno.test({
  name:
    "dashboard jobs: the list, pause and resume (one and all), run now, live on job events, spend by job",
  ...T,
  async fn() {
    const now = Date.now();
    await using hub = await startDashboardHub({
      calls: [...seededCalls(now, 20), ...jobCalls(now)],
      replies: ["**Good** morning:\n\n- *coffee* first\n\n```\nsun\n```"],
    });
    const paths = resolvePaths({ home: hub.home, env: {} });
    const scope: JobsScope = { paths, config: await loadConfig(paths, { lang: "en" }), lang: "en" };
    await addJob(scope, {
      name: "morning",
      schedule: "0 0 8 * * *",
      prompt: "Say good morning in five words.",
      role: "brain",
      deliver: "events",
    });
    await addJob(scope, {
      name: "weekly-report",
      schedule: "0 30 9 * * 1",
      prompt: "Sum up the week.",
      tz: "America/New_York",
      deliver: "none",
    });
    const browser = await launch();
    try {
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        bypassCSP: true,
      });
      const page = await context.newPage();
      const problems = watch(page);
      await page.goto(await hub.loginUrl());
      await ready(page);
      await page.goto(`${hub.base}/dashboard/#/jobs`);
      await ready(page);

      // The rows say what `agent jobs list` says.
      const listed = await listJobs(scope);
      for (const job of listed.jobs) {
        const row = page.locator(`tr[data-job='${job.name}']`);
        const text = await row.textContent() ?? "";
        assert.ok(job.next !== null && text.includes(job.next), `${job.name}: ${text}`);
        // Istanbul time first, whatever the job's zone.
        assert.ok(text.includes(formatIn(job.next_ms!, "Europe/Istanbul")), text);
        assert.match(job.next!, /^\d\d\.\d\d\.\d{4} \d\d:\d\d$/);
        assert.ok(text.includes(job.schedule) && text.includes(job.tz), text);
      }
      // Spend comes from the job log (none yet), as in `agent jobs list`.
      assert.match(await page.textContent("tr[data-job='morning']") ?? "", /\$0\.00\$0\.00/);
      await page.screenshot({ path: `${ARTIFACTS}jobs-desktop.png`, fullPage: true });
      // At desktop width the table fits its card: Run now and Log are not hidden past its edge.
      const overflow = await page.$eval(
        "table.jobs",
        (table) => table.parentElement!.scrollWidth - table.parentElement!.clientWidth,
      );
      assert.ok(overflow <= 0, `the jobs table is ${overflow}px wider than its card`);

      // Pause one job: the store holds the owner's pause, as `agent jobs pause` leaves it.
      await page.click("tr[data-job='morning'] button[data-action='pause']");
      await page.waitForSelector("tr[data-job='morning'] button[data-action='resume']");
      assert.equal(await page.textContent("#jobs-said"), "Paused job 'morning'.");
      assert.equal((await listJobs(scope)).jobs.find((j) => j.name === "morning")?.paused, "owner");
      await page.click("tr[data-job='morning'] button[data-action='resume']");
      await page.waitForSelector("tr[data-job='morning'] button[data-action='pause']");
      assert.equal((await listJobs(scope)).jobs.find((j) => j.name === "morning")?.paused, null);

      // Pause all, Resume all.
      await page.click("#pause-all");
      await page.waitForSelector("#all-paused");
      assert.equal((await listJobs(scope)).all_paused, true);
      // The sentence names the page's button, not the CLI command.
      assert.equal(
        await page.textContent("#jobs-said"),
        "Paused all jobs; no job runs until 'Resume all'.",
      );
      await page.screenshot({ path: `${ARTIFACTS}jobs-paused-desktop.png`, fullPage: true });
      await page.click("#resume-all");
      await page.waitForFunction(() => document.getElementById("all-paused") === null);
      assert.equal((await listJobs(scope)).all_paused, false);

      // Run now: the job runs on the fake model and its run is in the log.
      await page.click("tr[data-job='morning'] button[data-action='run']");
      await page.waitForFunction(() =>
        /^Job morning: ok/.test(document.getElementById("jobs-said")?.textContent ?? "")
      );
      await page.waitForSelector("table.job-log tr[data-slot^='morning@now-']");
      // The answer's words show in the log, not its Markdown marks.
      assert.equal(
        await page.textContent("table.job-log tr[data-slot^='morning@now-'] td.detail"),
        "Good morning: • coffee first sun",
      );
      assert.match(await page.textContent("tr[data-job='morning']") ?? "", /ok/);

      // Live: another process pauses the job and a job.* event arrives; no reload.
      await pauseJobs(scope, "weekly-report");
      await appendNetEvent(paths.netDir, {
        ts: Math.floor(Date.now() / 1000),
        type: "job.notice",
        job: "weekly-report",
        text: "Job weekly-report is paused.",
      });
      await page.waitForSelector("tr[data-job='weekly-report'] button[data-action='resume']", {
        timeout: 10_000,
      });

      // One job's log.
      await page.click("tr[data-job='morning'] a[href='#/jobs/morning']");
      await ready(page);
      await page.waitForFunction(() =>
        document.getElementById("j-log")?.textContent === "Log of morning"
      );
      assert.ok(await page.locator("table.job-log tr[data-slot^='morning@']").count() >= 1);
      assert.equal(await page.locator("table.job-log tr[data-slot^='weekly-report@']").count(), 0);

      // A refusal answers the command's sentence (the console notes the two refusals).
      assert.deepEqual(problems, []);
      const res = await pageApi(page, "jobs/pause", { method: "POST", body: { name: "nope" } });
      const noCsrf = await pageApi(page, "jobs/pause", {
        method: "POST",
        body: { all: true },
        csrf: false,
      });
      assert.deepEqual(
        [res.status, (JSON.parse(res.text) as { detail: string }).detail, noCsrf.status],
        [400, "No job 'nope' in persona/jobs/.", 403],
      );
      assert.equal((await listJobs(scope)).all_paused, false);
      problems.length = 0;

      // Accessibility, light and dark.
      await page.goto(`${hub.base}/dashboard/#/jobs`);
      for (const theme of ["light", "dark"] as const) {
        await useTheme(page, theme);
        assert.deepEqual(await seriousViolations(page), [], theme);
      }
      await page.screenshot({ path: `${ARTIFACTS}jobs-dark-desktop.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${ARTIFACTS}jobs-dark-phone.png`, fullPage: true });
      await useTheme(page, "light");

      // Turkish.
      await page.selectOption("#lang", "tr");
      await ready(page);
      const tr = await page.textContent("main") ?? "";
      assert.ok(tr.includes("Tümünü duraklat") && tr.includes("Sonraki çalışma"), tr);
      // The last outcome in Turkish too (the API keeps the code).
      assert.equal(
        await page.$eval(
          "tr[data-job='morning'] td:nth-child(4)",
          (td) => td.firstChild?.textContent,
        ),
        "tamam",
      );
      // What the hub answers a button with is in the page's language too.
      await page.click("tr[data-job='morning'] button[data-action='pause']");
      await page.waitForFunction(() =>
        document.getElementById("jobs-said")?.textContent === "'morning' görevi duraklatıldı."
      );
      await page.click("tr[data-job='morning'] button[data-action='resume']");
      await page.waitForSelector("tr[data-job='morning'] button[data-action='pause']");
      // On a phone a cell's second line (the time zone) starts under its value, not its label.
      const cell = await page.$eval("tr[data-job='morning'] td[data-label]", (td) => ({
        value: td.querySelector("code")!.getBoundingClientRect().left,
        // Where its text starts: the box's left plus its padding.
        second: td.querySelector(".muted")!.getBoundingClientRect().left +
          parseFloat(getComputedStyle(td.querySelector(".muted")!).paddingLeft),
        label: td.getBoundingClientRect().left,
      }));
      assert.ok(cell.second > cell.label + 50, JSON.stringify(cell));
      assert.ok(Math.abs(cell.second - cell.value) < 16, JSON.stringify(cell));
      await assertOneTheme(page);
      await page.screenshot({ path: `${ARTIFACTS}jobs-tr-phone.png`, fullPage: true });
      // A hub without a spine: the Network page says what to do, in Turkish too.
      await page.goto(`${hub.base}/dashboard/#/network`);
      await ready(page);
      assert.match(
        await page.textContent("#net-setup") ?? "",
        /^Ajan ağı kurulmadı: .*agent net init/,
      );
      assert.equal(
        await page.textContent("#net-setup + p"),
        "Şu an eksik: .env içinde AGENT_SPINE_URL.",
      );
      await page.selectOption("#lang", "en");
      await page.setViewportSize({ width: 1280, height: 800 });

      // Spend by job: the breakdown, its table and its CSV.
      await page.goto(`${hub.base}/dashboard/#/spend/month`);
      await ready(page);
      const byJob = await page.textContent("section[aria-labelledby='s-job']") ?? "";
      assert.ok(byJob.includes("By job") && byJob.includes("weekly-report"), byJob);
      const csv = await pageApi(page, "spend.csv?by=job&period=month");
      assert.equal(csv.status, 200);
      const lines = csv.text.trim().split("\r\n");
      assert.equal(
        lines[0],
        "job,usd,calls,unpriced_calls,estimated_calls,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens",
      );
      assert.ok(lines.some((l) => l.startsWith("weekly-report,0.02,1,")), csv.text);
      assert.ok(lines.some((l) => /^morning,0\.04\d*,[2-9],/.test(l)), csv.text);
      await assertOneTheme(page);
      await page.screenshot({ path: `${ARTIFACTS}spend-by-job-desktop.png`, fullPage: true });
      assert.deepEqual(problems, []);
      await context.close();
    } finally {
      await browser.close();
    }
  },
});
