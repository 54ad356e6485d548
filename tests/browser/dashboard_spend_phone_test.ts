/**
 * The Spend page on a phone with the widest figures a ledger gives: a long contact
 * address, a long session id and job name, seven-digit token counts and a four-digit
 * dollar sum. Every table (by day, channel, contact, session and job) must still fit
 * 390 px, in English and Turkish, light and dark, each figure beside its label, and
 * axe-core must find no serious violation in the phone layout.
 */

import assert from "node:assert/strict";
import type { CallRecord } from "@agent/hub/money";
import { seriousViolations } from "../dashboard/_axe.ts";
import { seededCalls, startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, assertFits, launch, ready, T, useTheme, watch } from "../dashboard/_browser.ts";

const PEER = "a-contact-with-a-rather-long-address.agents.example.org";
const SESSION = "messenger-7f3c2a9e4b1d4c8f9a6e2b7d5c3f1a0e";
const JOB = "nightly-digest-of-every-contact-note";

/** Three calls with the widest values, by the net, the messenger and a job. */
function wideCalls(nowMs: number): CallRecord[] {
  const base = seededCalls(nowMs, 1)[0]!;
  const big = {
    input_tokens: 1_234_567,
    output_tokens: 987_654,
    cache_read_tokens: 2_000_000,
    cache_write_tokens: 500_000,
    usd: 1234.5678,
  };
  return [
    { ...base, ...big, channel: "net", session_id: null, peer: PEER },
    { ...base, ...big, channel: "messenger", session_id: SESSION, peer: null },
    {
      ...base,
      ...big,
      channel: "job",
      session_id: `job-${JOB}-20261126-210000-ab12`,
      peer: null,
    },
  ];
}

Deno.test({
  name:
    "dashboard spend on a phone: long names and large figures wrap inside their tables, labelled, in en and tr, light and dark",
  ...T,
  async fn() {
    await using hub = await startDashboardHub({ calls: wideCalls(Date.now()) });
    const browser = await launch();
    try {
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const problems = watch(page);
      await page.goto(await hub.loginUrl());
      await ready(page);
      await page.goto(`${hub.base}/dashboard/#/spend/month`);
      await ready(page);
      await page.waitForFunction(() => document.querySelectorAll(".chart canvas").length >= 6);
      const text = await page.textContent("main") ?? "";
      for (
        const figure of [PEER, `messenger ${SESSION}`, JOB, "$1,234.57", "3,734,567 / 987,654"]
      ) {
        assert.ok(text.includes(figure), figure);
      }
      // Five tables, each row a block: its name, then Dollars, Calls and Tokens labelled.
      assert.equal(await page.locator("table.spend").count(), 5);
      assert.deepEqual(
        await page.$$eval(
          `table.spend tbody tr:has(th:text-is("${PEER}")) td`,
          (cells) => cells.map((c) => getComputedStyle(c, "::before").content),
        ),
        ['"Dollars"', '"Calls"', '"Tokens in / out"'],
      );
      await assertFits(page, "spend with wide figures on a phone");
      await page.screenshot({ path: `${ARTIFACTS}spend-phone-wide.png`, fullPage: true });

      await page.selectOption("#lang", "tr");
      await ready(page);
      assert.match(await page.textContent("main") ?? "", /Harcama \(bu ay\)/);
      await assertFits(page, "spend with wide figures on a phone in Turkish");
      await useTheme(page, "dark");
      await assertFits(page, "spend with wide figures on a phone in Turkish, dark");
      await page.screenshot({ path: `${ARTIFACTS}spend-phone-wide-tr-dark.png`, fullPage: true });
      await page.selectOption("#lang", "en");
      await ready(page);
      await assertFits(page, "spend with wide figures on a phone, dark");
      assert.deepEqual(problems, []);
      await context.close();

      // The hidden head keeps the table's meaning for a screen reader: axe finds nothing
      // serious at phone size, light or dark (its script needs the CSP bypassed).
      const axed = await browser.newContext({
        viewport: { width: 390, height: 844 },
        bypassCSP: true,
      });
      const a11y = await axed.newPage();
      await a11y.goto(await hub.loginUrl());
      await ready(a11y);
      await a11y.goto(`${hub.base}/dashboard/#/spend/month`);
      for (const theme of ["light", "dark"] as const) {
        await useTheme(a11y, theme);
        assert.deepEqual(await seriousViolations(a11y), [], theme);
      }
      await axed.close();
    } finally {
      await browser.close();
    }
  },
});
