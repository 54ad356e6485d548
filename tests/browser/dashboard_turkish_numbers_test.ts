/**
 * The dashboard in Turkish on an English hub (issue 39 W16): every dollar amount on the
 * Overview and Spend pages reads with the Turkish decimal comma and grouping dot
 * (`$1.234,57`), none with the English decimal point beside Turkish counts (`1.234`),
 * and the owner events the English hub wrote (a spent budget, a job's notice) read as
 * Turkish sentences; switched back to English, the same events read in English.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { seededCalls, startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, launch, ready, T, watch } from "../dashboard/_browser.ts";
import { until } from "../_poll.ts";

/** Every `$…` amount in `text` (a sentence's closing mark left off). */
function amounts(text: string): string[] {
  return [...text.matchAll(/\$[\d.,]*\d/g)].map((m) => m[0]);
}

/** Asserts each amount on `page`'s main is Turkish: grouping dots, a decimal comma. */
async function assertTurkishAmounts(page: Page, what: string): Promise<void> {
  const text = await page.innerText("main");
  const found = amounts(text);
  assert.ok(found.length > 0, `${what}: no amounts`);
  for (const amount of found) {
    assert.match(amount, /^\$\d{1,3}(\.\d{3})*,\d+$/, `${what}: ${amount} is not Turkish`);
  }
}

Deno.test({
  name:
    "dashboard in Turkish on an English hub: Turkish amounts everywhere, the hub's events in Turkish",
  ...T,
  async fn() {
    const now = Date.now();
    const big = seededCalls(now, 1).map((c) => ({ ...c, role: "brain", usd: 1234.5678 }));
    await using hub = await startDashboardHub({ calls: [...seededCalls(now, 40), ...big] });
    const file = `${hub.home}/data/net/events.jsonl`;
    // The hub tells the spent budget (in English, its language) as it starts.
    await until(
      "the hub's budget.spent event",
      async () => (await Deno.readTextFile(file).catch(() => "")).includes('"budget.spent"'),
    );
    // A notice an English `agent jobs run` wrote while the hub ran: English text, its code.
    const line = {
      event_id: `${Date.now() + 1000}-000001`,
      ts: Math.floor(Date.now() / 1000),
      type: "job.notice",
      job: "news",
      text:
        "Job news is paused: today's spend $0.014 and one more run would pass its max_usd_per_day of $0.02.",
      said: { code: "jobs.ceiling_day", vars: { name: "news" }, usd: { spent: 0.014, cap: 0.02 } },
    };
    await Deno.writeTextFile(file, JSON.stringify(line) + "\n", {
      append: true,
    });
    const browser = await launch();
    try {
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      for (
        const [name, viewport] of [["desktop", { width: 1280, height: 800 }], ["phone", {
          width: 390,
          height: 844,
        }]] as const
      ) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        const problems = watch(page);
        await page.goto(await hub.loginUrl());
        await ready(page);
        await page.selectOption("#lang", "tr");
        await ready(page);
        const events = page.locator("ul.events");
        await events.getByText("news: news görevi duraklatıldı").waitFor();
        const said = await events.textContent() ?? "";
        assert.match(
          said,
          /news görevi duraklatıldı: bugünkü harcama \$0,014 ve bir çalışma daha max_usd_per_day sınırı olan \$0,02 değerini aşar\./,
        );
        assert.match(said, /brain bütçesi tükendi \(\$15,00 sınırından \$1\.2\d\d,\d\d harcandı\)/);
        assert.doesNotMatch(said, /Job news is paused|budget is spent/);
        await assertTurkishAmounts(page, `overview (${name})`);
        await page.screenshot({ path: `${ARTIFACTS}tr-numbers-overview-${name}.png` });
        await events.screenshot({ path: `${ARTIFACTS}tr-numbers-events-${name}.png` });

        await page.goto(`${hub.base}/dashboard/#/spend/month`);
        await ready(page);
        await page.waitForFunction(() => document.querySelectorAll(".chart canvas").length >= 2);
        await assertTurkishAmounts(page, `spend (${name})`);
        const spend = await page.innerText("main");
        assert.match(spend, /\$1\.2\d\d,\d+/, "a four-digit amount groups with a dot");
        // The charts' text alternatives say their dollars the Turkish way too.
        const alts = await page.$$eval(
          ".chart[role='img']",
          (els) => els.map((e) => e.getAttribute("aria-label") ?? ""),
        );
        for (const alt of alts) {
          for (const amount of amounts(alt)) {
            assert.match(amount, /^\$\d{1,3}(\.\d{3})*,\d+$/, `chart text: ${alt}`);
          }
        }
        await page.screenshot({ path: `${ARTIFACTS}tr-numbers-spend-${name}.png` });

        // The same events in English once the page is.
        await page.goto(`${hub.base}/dashboard/#/`);
        await ready(page);
        await page.selectOption("#lang", "en");
        await ready(page);
        await page.locator("ul.events").getByText("news: Job news is paused").waitFor();
        assert.match(
          await page.locator("ul.events").textContent() ?? "",
          /The brain budget is spent \(\$1,\d{3}\.\d\d of \$15\.00\)/,
        );
        assert.deepEqual(problems, []);
        await context.close();
      }
    } finally {
      await browser.close();
    }
  },
});
