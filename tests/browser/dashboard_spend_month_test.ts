/**
 * The Spend page at a month of use (issue 39: W2, W3, W18, W19): 200 sessions over the
 * month by brain and fast (brain capped by the month, fast by the day) and a few calls
 * last month. The page stays a few screens tall on a desktop and a phone, its long
 * breakdowns show the top ten and "Other" with every row a click away, each role is
 * drawn against its own cap (today by hour), a chart shows its values under the
 * pointer, tables sort by any column, the period before is named, and every money
 * column adds up to its total as shown. Screenshots at 1280×800 and 390×844, light and
 * dark, English and Turkish.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { CallRecord } from "@agent/hub/money";
import { formatUsd, periodBounds } from "@agent/hub/money";
import { monthOfCalls, startDashboardHub } from "../_hub_in_process.ts";
import {
  ARTIFACTS,
  assertFits,
  downloadText,
  launch,
  ready,
  T,
  useTheme,
  watch,
} from "../dashboard/_browser.ts";

/** Ten calls in the month before this one: the "Last month" line's figures. */
function lastMonth(nowMs: number): CallRecord[] {
  const { sinceMs } = periodBounds("month", nowMs);
  const base = monthOfCalls(nowMs, 1)[0]!;
  return Array.from({ length: 10 }, (_, i) => ({
    ...base,
    ts: sinceMs - (i + 1) * 3_600_000,
    session_id: `chat-last-${i}`,
    usd: 0.05,
  }));
}

/** The money cells of every spend table, as shown: each table's rows and its total. */
async function columns(page: Page): Promise<{ name: string; parts: string[]; total: string }[]> {
  return await page.$$eval("table.spend", (tables) =>
    tables.flatMap((table) => {
      // A table of one row has no total to add up to.
      if (table.querySelector("tfoot tr") === null) return [];
      const name = table.closest("section")?.querySelector("h2")?.textContent ?? "";
      const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent ?? "");
      const body = [...table.querySelectorAll("tbody tr, tfoot tr")];
      const money = (cell: Element | undefined) => (cell?.textContent ?? "").replace(/^≈ /, "");
      // The day table: every column of dollars (each role, the total) down its rows.
      if (table.classList.contains("days")) {
        return heads.slice(1).map((head, c) => {
          const cells = body.map((tr) => money(tr.children[c + 1]));
          return { name: `${name} ${head}`, parts: cells.slice(0, -1), total: cells.at(-1)! };
        });
      }
      // A breakdown: its dollars column, the rows (and "Other") above its Total.
      const cells = body.map((tr) => money(tr.children[1]));
      return [{ name, parts: cells.slice(0, -1), total: cells.at(-1)! }];
    }));
}

/** Throws unless every column's shown parts add up to its shown total. */
function assertAddsUp(found: { name: string; parts: string[]; total: string }[]): void {
  assert.ok(found.length > 0);
  for (const { name, parts, total } of found) {
    const digits = (total.split(".")[1] ?? "").length;
    const units = (v: string) => Math.round(Number(v.replace("$", "")) * 10 ** digits);
    for (const p of parts) assert.equal((p.split(".")[1] ?? "").length, digits, `${name}: ${p}`);
    assert.equal(
      parts.reduce((a, p) => a + units(p), 0),
      units(total),
      `${name}: ${parts} ≠ ${total}`,
    );
  }
}

async function openAllTables(page: Page): Promise<void> {
  await page.$$eval(
    "details.table-details",
    (all) => all.forEach((d) => d.setAttribute("open", "")),
  );
}

/** Opens the Spend page of `period` afresh, its charts drawn. */
async function openSpend(page: Page, base: string, period: string, charts = 5): Promise<void> {
  await page.goto(`${base}/dashboard/#/spend/${period}`);
  await page.reload();
  await ready(page);
  await page.waitForFunction((n) => document.querySelectorAll(".chart canvas").length >= n, charts);
}

/** The CSV a click on the section `by`'s Download CSV gives. */
async function downloaded(page: Page, by: string): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.click(`button[data-csv='${by}']`),
  ]);
  return await downloadText(download);
}

/**
 * Today's CSV has the chart's rows: one per hour begun (its start, each role's dollars,
 * the total, the calls), the table's figures, in machine numbers in every language.
 */
async function assertTodayCsv(page: Page): Promise<void> {
  const hoursBegun = () => Temporal.Now.zonedDateTimeISO("Europe/Istanbul").hour + 1;
  const before = hoursBegun();
  const csv = await downloaded(page, "day");
  const [head, ...rows] = csv.trimEnd().split("\r\n").map((line) => line.split(","));
  const roles = await page.$$eval(
    "table.days thead th",
    (ths) => ths.slice(1, -1).map((th) => th.textContent),
  );
  assert.deepEqual(head, ["hour", ...roles.map((r) => `${r}_usd`), "total_usd", "calls"]);
  const today = Temporal.Now.plainDateISO("Europe/Istanbul").toString();
  assert.ok([before, hoursBegun()].includes(rows.length), `${rows.length} hours in the CSV`);
  rows.forEach((row, i) => assert.equal(row[0], `${today} ${String(i).padStart(2, "0")}:00`));
  const shown = await page.$$eval(
    "table.days tbody tr",
    (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? "")),
  );
  // Two hours with calls, or one in the day's first hour.
  assert.ok(shown.length >= Math.min(2, before), `${shown.length} hours shown`);
  for (const [hour, ...money] of shown) {
    const row = rows.find((r) => r[0] === `${today} ${hour}`);
    assert.ok(row, `${hour} in the CSV`);
    money.forEach((cell, c) => {
      const digits = (cell.split(".")[1] ?? "").length;
      assert.match(row[c + 1]!, /^\d+(\.\d+)?$/);
      assert.equal(`$${Number(row[c + 1]).toFixed(digits)}`, cell.replace(/^≈ /, ""), hour);
    });
  }
  await page.selectOption("#lang", "tr");
  await ready(page);
  await page.waitForSelector("button[data-csv='day']");
  assert.equal(await downloaded(page, "day"), csv, "the same numbers in Turkish");
  await page.selectOption("#lang", "en");
  await ready(page);
}

const SERIES = "section[aria-labelledby='s-cumulative'] .u-legend .u-series th";

Deno.test({
  name: "dashboard spend at a month of use (issue 39: W2, W3, W18, W19)",
  ...T,
  async fn(t) {
    const now = Date.now();
    await using hub = await startDashboardHub({ calls: [...monthOfCalls(now), ...lastMonth(now)] });
    const browser = await launch();
    try {
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const problems = watch(page);
      await page.goto(await hub.loginUrl());
      await ready(page);
      const sessions = page.locator("section[aria-labelledby='s-session']");

      await t.step(
        "W2: a breakdown shows its top ten and Other, every row on request",
        async () => {
          await openSpend(page, hub.base, "month");
          assert.equal(await sessions.locator("table.spend tbody tr").count(), 10);
          const foot = await sessions.locator("table.spend tfoot th").allTextContents();
          assert.equal(foot.length, 2);
          assert.match(foot[0]!, /^Other \(\d+\)$/);
          assert.equal(foot[1], "Total");
          const all = Number(foot[0]!.match(/\d+/)![0]) + 10;
          assert.ok(all > 150, `${all} sessions`);
          await sessions.getByRole("button", { name: `Show all ${all} rows` }).click();
          assert.equal(await sessions.locator("table.spend tbody tr").count(), all);
          assert.deepEqual(await sessions.locator("table.spend tfoot th").allTextContents(), [
            "Total",
          ]);
          await sessions.getByRole("button", { name: "Show the top 10" }).click();
          assert.equal(await sessions.locator("table.spend tbody tr").count(), 10);
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          assert.ok(height < 6000, `the month's page is ${height}px tall at 1280×800`);
        },
      );

      await t.step("W19: every money column adds up to its total as shown", async () => {
        await openSpend(page, hub.base, "month");
        assertAddsUp(await columns(page));
        await sessions.getByRole("button", { name: /^Show all/ }).click();
        assertAddsUp(await columns(page));
        await openSpend(page, hub.base, "day", 2);
        assertAddsUp(await columns(page));
      });

      await t.step("W3: each role against its own cap, today by hour", async () => {
        await openSpend(page, hub.base, "month");
        const brain = await page.textContent("li[data-role='brain']") ?? "";
        assert.match(brain, /^brain: \$[\d.]+ of \$15\.00 this month · at this pace \$[\d.]+/);
        const fast = await page.textContent("li[data-role='fast']") ?? "";
        assert.match(fast, /^fast: \$[\d.]+ of \$1\.00 today.*\(its cap is per day\)$/);
        // Fast's day cap and day pace are not drawn on the month: brain's are.
        const series = await page.$$eval(SERIES, (ths) => ths.map((th) => th.textContent?.trim()));
        assert.deepEqual(series.slice(1), [
          "brain spent",
          "brain forecast",
          "brain cap",
          "fast spent",
        ]);
        await openSpend(page, hub.base, "day", 2);
        assert.match(await page.textContent("#s-day") ?? "", /^Today by hour and role$/);
        // In the day's first hour (the hub's, Istanbul's) every call of today falls in it.
        const begun = Temporal.Now.zonedDateTimeISO("Europe/Istanbul").hour + 1;
        const rows = await page.locator("table.days tbody tr").count();
        assert.ok(rows >= Math.min(2, begun), `${rows} hours with calls, ${begun} begun`);
        assert.match(await page.textContent("table.days tbody th") ?? "", /^\d\d:00$/);
        const today = await page.$$eval(SERIES, (ths) => ths.map((th) => th.textContent?.trim()));
        for (const name of ["brain spent", "fast spent", "fast forecast", "fast cap"]) {
          assert.ok(today.includes(name), `${name} in ${today}`);
        }
        await page.screenshot({ path: `${ARTIFACTS}spend-today-desktop.png`, fullPage: true });
        await assertTodayCsv(page);
      });

      await t.step("W18: the period before, values under the pointer, sorting", async () => {
        await openSpend(page, hub.base, "month");
        assert.match(
          await page.textContent("#previous") ?? "",
          /^Last month: \$0\.50 in 10 calls\.$/,
        );
        // The plot area (uPlot's overlay): its first of eleven bars is at 1/22 of its width.
        await sessions.locator(".u-over").scrollIntoViewIfNeeded();
        const box = (await sessions.locator(".u-over").boundingBox())!;
        await page.mouse.move(box.x + box.width / 22, box.y + box.height / 2, { steps: 3 });
        await page.waitForFunction(() =>
          !document.querySelector("section[aria-labelledby='s-session'] .u-legend")?.textContent
            ?.includes("–")
        );
        const hover = await sessions.locator(".u-legend").textContent() ?? "";
        const first = sessions.locator("table.spend tbody tr").first();
        const firstRow = await first.locator("th").textContent();
        const firstUsd = await first.locator("td").first().textContent();
        assert.ok(hover.includes(firstRow!), `the legend names ${firstRow}: ${hover}`);
        // The legend shows one amount, as a sentence would; the table, its column's digits.
        const one = `$${formatUsd(Number(firstUsd!.replace(/[≈ $]/g, "")), "en")}`;
        assert.ok(hover.includes(one), `and its ${one}: ${hover}`);
        await sessions.getByRole("button", { name: "Dollars" }).click();
        assert.equal(
          await sessions.locator("table.spend th[aria-sort='descending']").textContent(),
          "Dollars ▼",
        );
        await sessions.getByRole("button", { name: "Dollars" }).click();
        const ascending = await sessions.locator("table.spend tbody td:nth-child(2)")
          .allTextContents();
        const values = ascending.map((v) => Number(v.replace(/[≈ $]/g, "")));
        assert.deepEqual(values, [...values].sort((a, b) => a - b));
        await page.mouse.move(0, 0);
        await page.screenshot({ path: `${ARTIFACTS}spend-month-desktop.png`, fullPage: true });
        await page.selectOption("#lang", "tr");
        await ready(page);
        assert.match(
          await page.textContent("#previous") ?? "",
          /^Geçen ay: 10 çağrıda \$0,50\.$/,
        );
        assert.match(await page.textContent("main") ?? "", /Diğer \(\d+\)/);
        await page.waitForFunction(() => document.querySelectorAll(".chart canvas").length >= 5);
        await page.screenshot({ path: `${ARTIFACTS}spend-month-desktop-tr.png`, fullPage: true });
        await useTheme(page, "dark");
        await page.waitForFunction(() => document.querySelectorAll(".chart canvas").length >= 5);
        await page.screenshot({
          path: `${ARTIFACTS}spend-month-desktop-tr-dark.png`,
          fullPage: true,
        });
        await page.selectOption("#lang", "en");
        await ready(page);
        await page.waitForFunction(() => document.querySelectorAll(".chart canvas").length >= 5);
        await page.screenshot({ path: `${ARTIFACTS}spend-month-desktop-dark.png`, fullPage: true });
        await useTheme(page, "light");
      });
      assert.deepEqual(problems, []);
      await context.close();

      await t.step(
        "W2 on a phone: a few screens, long tables folded, the days a grid",
        async () => {
          const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
          const small = await phone.newPage();
          const phoneProblems = watch(small);
          await small.goto(await hub.loginUrl());
          await ready(small);
          await openSpend(small, hub.base, "month");
          const tall = await small.evaluate(() => document.documentElement.scrollHeight);
          assert.ok(tall < 9000, `the month's page is ${tall}px tall at 390×844`);
          assert.equal(
            await small.$eval("table.days thead", (t) => getComputedStyle(t).position),
            "static",
          );
          assert.equal(
            await small.$eval("table.days tbody tr", (r) => getComputedStyle(r).display),
            "table-row",
          );
          for (const lang of ["en", "tr"] as const) {
            for (const theme of ["light", "dark"] as const) {
              await small.selectOption("#lang", lang);
              await ready(small);
              await useTheme(small, theme);
              await small.waitForFunction(() =>
                document.querySelectorAll(".chart canvas").length >= 5
              );
              await small.screenshot({
                path: `${ARTIFACTS}spend-month-phone-${lang}-${theme}.png`,
                fullPage: true,
              });
              await openAllTables(small);
              await assertFits(small, `the month on a phone (${lang}, ${theme})`);
            }
          }
          await small.selectOption("#lang", "en");
          await ready(small);
          await openSpend(small, hub.base, "day", 2);
          await assertFits(small, "today on a phone");
          await small.screenshot({
            path: `${ARTIFACTS}spend-today-phone-dark.png`,
            fullPage: true,
          });
          assert.deepEqual(phoneProblems, []);
          await phone.close();
        },
      );
    } finally {
      await browser.close();
    }
  },
});
