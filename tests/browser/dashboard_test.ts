/**
 * The web dashboard in headless Chromium (playwright-core), served by a real hub with
 * a seeded ledger: the login with a good, reused, expired and missing code; no cookie,
 * the session token in the tab's `sessionStorage`; the overview and spend pages with their charts, tables and CSV; no
 * console error or CSP violation; a page on another origin that tries to read or act
 * refused; screenshots at desktop and phone size, light and dark, kept under
 * `tests/dashboard/artifacts/`; and axe-core finding no serious violation.
 */

import assert from "node:assert/strict";
import { appendNetEvent } from "@agent/hub";
import { seededCalls, startDashboardHub } from "../_hub_in_process.ts";
import { seriousViolations } from "../dashboard/_axe.ts";
import {
  ARTIFACTS,
  assertFits,
  downloadText,
  launch,
  pageApi,
  ready,
  SESSION_KEY,
  T,
  useTheme,
  watch,
} from "../dashboard/_browser.ts";

Deno.test({
  name:
    "dashboard login: a good code signs in once (a token in sessionStorage, no cookie); reused, expired and missing codes are refused",
  ...T,
  async fn() {
    await using hub = await startDashboardHub();
    const browser = await launch();
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const problems = watch(page);
      const url = await hub.loginUrl();
      await page.goto(url);
      await ready(page);
      // The code leaves the address bar at once.
      assert.equal(new URL(page.url()).hash, "#/overview");
      // No cookie at all: the session token is in this tab's sessionStorage, which no
      // other origin (another port of 127.0.0.1 included) can read.
      assert.deepEqual(await context.cookies(), []);
      const token = await page.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY);
      assert.match(token ?? "", /^[\w-]{43}$/);
      // A reload keeps the session.
      await page.reload();
      await ready(page);
      assert.deepEqual(problems, []);
      // A second tab of the same browser borrows it from the first (same origin only).
      const second = await context.newPage();
      await second.goto(`${hub.base}/dashboard/#/spend/month`);
      await ready(second);
      assert.equal(await second.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY), token);

      // The same link again, in another browser profile: used.
      const other = await browser.newContext();
      const reused = await other.newPage();
      await reused.goto(url);
      await reused.waitForSelector("[role=alert]");
      assert.match(await reused.textContent("[role=alert]") ?? "", /already used or has expired/);
      assert.equal(await reused.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY), null);

      // A code older than 60 s.
      const late = await hub.loginUrl();
      hub.advance(61_000);
      await reused.goto(late);
      await reused.waitForSelector("[role=alert]");
      assert.match(await reused.textContent("[role=alert]") ?? "", /already used or has expired/);
      assert.equal(await reused.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY), null);

      // No code at all.
      const bare = await other.newPage();
      await bare.goto(`${hub.base}/dashboard/`);
      await bare.waitForSelector("[role=alert]");
      assert.match(await bare.textContent("[role=alert]") ?? "", /agent dashboard/);
      assert.equal((await pageApi(bare, "overview")).status, 401);
      // The command reads as code, not between backticks (issue 39, W7).
      assert.equal(await bare.textContent("[role=alert] code"), "agent dashboard");
      assert.ok(!(await bare.textContent("[role=alert]") ?? "").includes("`"));
      await bare.screenshot({ path: `${ARTIFACTS}signed-out-desktop.png` });
      await bare.setViewportSize({ width: 390, height: 844 });
      await bare.screenshot({ path: `${ARTIFACTS}signed-out-phone.png` });
      // A new sign-in link pasted into this signed-out tab changes only the fragment: no
      // page load, yet the tab signs in with it.
      await bare.goto(await hub.loginUrl());
      await ready(bare);
      assert.equal(new URL(bare.url()).hash, "#/overview");
      assert.match(
        await bare.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY) ?? "",
        /^[\w-]{43}$/,
      );
      assert.match(await bare.textContent("main") ?? "", /Budgets/);
      await other.close();

      // Signing out in one tab signs the other out too, and the token is gone.
      await second.click("text=Sign out");
      await second.waitForSelector("[role=alert]");
      await page.waitForSelector("[role=alert]");
      assert.match(await page.textContent("[role=alert]") ?? "", /agent dashboard/);
      for (const tab of [page, second]) {
        assert.equal(await tab.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY), null);
      }
      const gone = await fetch(`${hub.base}/dashboard/api/overview`, {
        headers: { "x-agent-session": token! },
      });
      assert.deepEqual([gone.status, await gone.json()], [401, { error: "unauthorized" }]);
      await context.close();
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "dashboard pages: overview and spend show the seeded ledger, draw their charts and offer CSV, in en and tr",
  ...T,
  async fn() {
    await using hub = await startDashboardHub({ calls: seededCalls(Date.now()) });
    const browser = await launch();
    try {
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const problems = watch(page);
      await page.goto(await hub.loginUrl());
      await ready(page);
      const overview = await page.textContent("main") ?? "";
      assert.match(overview, /Budgets/);
      assert.match(overview, /brain: \$\d+\.\d\d spent|brain: \$[\d.]+ of \$[\d.]+ this month/);
      assert.match(overview, /pid \d+, version test/);
      // Dates as everywhere in the agent: DD.MM.YYYY HH:MM.
      assert.match(overview, /\d\d\.\d\d\.\d{4} \d\d:\d\d/);
      // Owner events arrive live, whatever their type (one written by another process).
      await appendNetEvent(`${hub.home}/data/net`, {
        ts: Math.floor(Date.now() / 1000),
        type: "model.failover",
        role: "brain",
        stand_in: "fast",
        text: "brain failed over <live>",
      });
      await page.waitForFunction(() =>
        document.querySelector("ul.events")?.textContent?.includes("brain failed over <live>")
      );
      await page.screenshot({ path: `${ARTIFACTS}overview-desktop.png`, fullPage: true });

      await page.goto(`${hub.base}/dashboard/#/spend/month`);
      await ready(page);
      await page.waitForFunction(() => document.querySelectorAll(".chart canvas").length >= 5);
      const spend = await page.textContent("main") ?? "";
      assert.match(spend, /Spend this month: \$\d+\.\d\d in 60 calls/);
      for (const heading of ["By day and role", "By channel", "By contact", "By session"]) {
        assert.ok(spend.includes(heading), heading);
      }
      assert.ok(spend.includes("peer0.example"));
      assert.ok(spend.includes("messenger messenger-s1"));
      const csv = (await pageApi(page, "spend.csv?by=channel&period=month")).text;
      assert.match(
        csv,
        /^channel,usd,calls,unpriced_calls,estimated_calls,input_tokens,output_tokens,/,
      );
      assert.equal(csv.trim().split("\r\n").length, 5);
      const days = (await pageApi(page, "spend.csv?by=day&period=month")).text;
      // The button downloads it (the session travels in a header, so the page fetches it
      // and hands the browser the file).
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.click("button[data-csv='channel']"),
      ]);
      assert.equal(download.suggestedFilename(), "spend-channel-month.csv");
      assert.equal(await downloadText(download), csv);
      assert.match(days, /^day,brain_usd,fast_usd,total_usd,calls\r\n/);
      // At desktop size each table is still a table with its head, and fits its card.
      await assertFits(page, "spend at 1280×800");
      assert.deepEqual(
        await page.$$eval(
          "table.spend thead",
          (heads) => heads.map((head) => getComputedStyle(head).display),
        ),
        // By day, channel, contact and session (no job spent).
        Array(4).fill("table-header-group"),
      );
      await page.screenshot({ path: `${ARTIFACTS}spend-desktop.png`, fullPage: true });

      // Dark, then a phone.
      await page.selectOption("#theme", "dark");
      // The charts are drawn again in the new theme's colours: the axis labels left of the
      // first chart's plot are light on the dark card (they stayed dark once).
      const labelLight = await page.$eval(".chart canvas", (c) => {
        const canvas = c as HTMLCanvasElement;
        const { data } = canvas.getContext("2d")!.getImageData(0, 0, 40, canvas.height);
        let most = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (data[i + 3]! > 0) most = Math.max(most, (data[i]! + data[i + 1]! + data[i + 2]!) / 3);
        }
        return most;
      });
      assert.ok(labelLight > 150, `the dark theme's axis labels are dark: ${labelLight}`);
      await page.screenshot({ path: `${ARTIFACTS}spend-desktop-dark.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${hub.base}/dashboard/#/overview`);
      await ready(page);
      await page.screenshot({ path: `${ARTIFACTS}overview-phone-dark.png`, fullPage: true });
      await page.selectOption("#theme", "light");
      await page.goto(`${hub.base}/dashboard/#/spend/week`);
      await ready(page);
      await page.waitForFunction(() => document.querySelectorAll(".chart canvas").length >= 2);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `no sideways scrolling on a phone (${width})`);
      // Every table fits too: each row a block of labelled figures, none cut off.
      await assertFits(page, "spend on a phone");
      await page.screenshot({ path: `${ARTIFACTS}spend-phone.png`, fullPage: true });

      // Turkish.
      await page.selectOption("#lang", "tr");
      await ready(page);
      assert.match(await page.textContent("main") ?? "", /Harcama \(bu hafta\)/);
      assert.equal(await page.evaluate(() => document.documentElement.lang), "tr");
      await assertFits(page, "spend on a phone in Turkish");
      await page.screenshot({ path: `${ARTIFACTS}spend-phone-tr.png`, fullPage: true });
      await useTheme(page, "dark");
      await page.waitForFunction(() => document.querySelectorAll(".chart canvas").length >= 2);
      await assertFits(page, "spend on a phone in Turkish, dark");
      await page.screenshot({ path: `${ARTIFACTS}spend-phone-tr-dark.png`, fullPage: true });
      assert.deepEqual(problems, []);
      await context.close();
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "dashboard: a page on another origin can neither read nor act (fetch, form post, event stream)",
  ...T,
  async fn() {
    await using hub = await startDashboardHub({ calls: seededCalls(Date.now(), 8) });
    // Another local site (another port of 127.0.0.1 is the same *site*).
    const evil = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
      new Response(
        `<!doctype html><title>evil</title><body>
<form id="f" method="POST" action="${hub.base}/dashboard/api/logout"></form>
<script>
window.results = {};
(async () => {
  try { const r = await fetch("${hub.base}/dashboard/api/overview", { credentials: "include" });
    results.read = "read " + r.status + " " + (await r.text()).slice(0, 40); }
  catch (e) { results.read = "blocked"; }
  try { const r = await fetch("${hub.base}/dashboard/api/logout", { method: "POST", mode: "no-cors", credentials: "include" });
    results.act = "sent " + r.type; } catch (e) { results.act = "blocked"; }
  const es = new EventSource("${hub.base}/dashboard/api/events", { withCredentials: true });
  es.onmessage = () => { results.stream = "heard"; };
  es.onerror = () => { results.stream = results.stream || "refused"; es.close(); };
  setTimeout(() => { results.done = true; }, 1500);
})();
</script></body>`,
        { headers: { "content-type": "text/html" } },
      ));
    const browser = await launch();
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(await hub.loginUrl());
      await ready(page);
      const attacker = await context.newPage();
      const statuses: string[] = [];
      attacker.on("response", (r) => {
        if (r.url().startsWith(`${hub.base}/dashboard/api/`)) {
          statuses.push(`${r.request().method()} ${new URL(r.url()).pathname} ${r.status()}`);
        }
      });
      attacker.on("requestfailed", (r) => {
        if (r.url().startsWith(`${hub.base}/dashboard/api/`)) {
          statuses.push(`${r.method()} ${new URL(r.url()).pathname} ${r.failure()?.errorText}`);
        }
      });
      await attacker.goto(`http://127.0.0.1:${evil.addr.port}/`);
      await attacker.waitForFunction(() =>
        (globalThis as unknown as { results: { done?: boolean } }).results?.done === true
      );
      const results = await attacker.evaluate(() =>
        (globalThis as unknown as { results: Record<string, unknown> }).results
      );
      assert.equal(results.read, "blocked");
      assert.equal(results.stream, "refused");
      // The refusal (403) carries `Cross-Origin-Resource-Policy: same-origin`, so the
      // browser does not even hand the opaque answer to the other page.
      assert.ok(
        statuses.some((s) =>
          s.startsWith("POST /dashboard/api/logout net::ERR_BLOCKED_BY_RESPONSE")
        ),
        String(statuses),
      );
      // What the browser sent on the attacker's behalf, replayed with the real session
      // token and CSRF token: the hub refuses it for its origin alone.
      const token = await page.evaluate((key) => sessionStorage.getItem(key)!, SESSION_KEY);
      const { csrf } = JSON.parse((await pageApi(page, "session")).text) as { csrf: string };
      const evilOrigin = `http://127.0.0.1:${evil.addr.port}`;
      for (
        const [method, path, headers] of [
          ["GET", "overview", { origin: evilOrigin, "sec-fetch-site": "same-site" }],
          ["GET", "overview", { "sec-fetch-site": "same-site" }],
          ["GET", "events", { "sec-fetch-site": "same-site" }],
          ["GET", "events", { origin: "null" }],
          ["POST", "logout", { origin: evilOrigin, "x-csrf-token": csrf }],
          ["POST", "logout", { origin: "null", "x-csrf-token": csrf }],
        ] as const
      ) {
        const res = await fetch(`${hub.base}/dashboard/api/${path}`, {
          method,
          headers: { "x-agent-session": token, ...headers },
        });
        assert.deepEqual([path, res.status], [path, 403], JSON.stringify(headers));
        await res.body?.cancel();
      }
      // Without the CSRF token a same-origin POST is refused too.
      const noCsrf = await fetch(`${hub.base}/dashboard/api/logout`, {
        method: "POST",
        headers: { "x-agent-session": token, origin: hub.base },
      });
      assert.deepEqual([noCsrf.status, await noCsrf.json()], [403, { error: "csrf" }]);
      // A form post (a navigation) is refused too.
      const [response] = await Promise.all([
        attacker.waitForNavigation(),
        attacker.evaluate(() => (document.getElementById("f") as HTMLFormElement).submit()),
      ]);
      assert.equal(response?.status(), 403);
      // The session survived every attempt.
      assert.equal((await pageApi(page, "overview")).status, 200);
      await context.close();
    } finally {
      await browser.close();
      await evil.shutdown();
    }
  },
});

Deno.test({
  name:
    "dashboard accessibility: axe-core finds no serious or critical violation on any page, light or dark",
  ...T,
  async fn() {
    await using hub = await startDashboardHub({ calls: seededCalls(Date.now(), 20) });
    const browser = await launch();
    try {
      // The CSP would refuse the injected axe script; the page's own code is unchanged.
      const context = await browser.newContext({ bypassCSP: true });
      const page = await context.newPage();
      await page.goto(await hub.loginUrl());
      await ready(page);
      for (
        const [route, theme] of [
          ["overview", "light"],
          ["spend/month", "dark"],
          ["overview", "dark"],
          ["conversations", "light"],
          ["approvals", "dark"],
          ["network", "light"],
          ["settings", "dark"],
          ["jobs", "light"],
          ["jobs", "dark"],
        ] as const
      ) {
        // The view changes by its fragment and the theme from its menu, in place: the page
        // loads once and takes axe-core's script once.
        await page.goto(`${hub.base}/dashboard/#/${route}`);
        await page.waitForSelector(`nav a[aria-current='page'][href='#/${route.split("/")[0]}']`);
        await ready(page);
        await useTheme(page, theme);
        const violations = await seriousViolations(page);
        assert.deepEqual(violations, [], `${route} (${theme})`);
      }
      await context.close();
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "dashboard spend: the dollar axis is as wide as its longest label ($0.0125 keeps its $)",
  ...T,
  async fn() {
    const now = Date.now();
    const call = seededCalls(now, 1)[0]!;
    await using hub = await startDashboardHub({ calls: [{ ...call, usd: 0.0125 }] });
    const browser = await launch();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(await hub.loginUrl());
      await ready(page);
      await page.goto(`${hub.base}/dashboard/#/spend/month`);
      await ready(page);
      await page.waitForSelector(".chart .u-over");
      const { plotLeft, label } = await page.$eval(".chart", (chart) => {
        const ctx = document.createElement("canvas").getContext("2d")!;
        ctx.font = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
        return {
          // Where the plot starts: the axis' width, labels drawn to its left.
          plotLeft: parseFloat((chart.querySelector(".u-over") as HTMLElement).style.left),
          label: ctx.measureText("$0.0125").width,
        };
      });
      // The label, its tick (10 px) and gap (5 px) fit left of the plot.
      assert.ok(plotLeft >= label + 15, `axis ${plotLeft}px for a ${label}px label`);
    } finally {
      await browser.close();
    }
  },
});
