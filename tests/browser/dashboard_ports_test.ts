/**
 * The dashboard's credential stays on its own port. A cookie for `127.0.0.1` goes to
 * every port of `127.0.0.1`, so once a server on another port got a page opened (a link
 * in a model's answer, a hop through another site) it received the dashboard's session
 * and could read the CSRF token with it. Here a server on a second loopback port serves
 * pages under `/dashboard/` that ask their own origin for `/dashboard/api/session`, and
 * a third server on `localhost` (another site) redirects there; the signed-in person
 * clicks both links in a model's answer and opens the second port in the dashboard's own
 * tab. Nothing that reaches the other ports carries a cookie, the session token or the
 * CSRF token, their pages read nothing from storage, and the dashboard stays signed in.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startDashboardHub } from "../_hub_in_process.ts";
import { launch, pageApi, ready, SESSION_KEY, signedIn, T } from "../dashboard/_browser.ts";

/** A request a server received: its address and every header. */
interface Seen {
  url: string;
  headers: [string, string][];
}

/**
 * A local server that wants the dashboard's credential: its pages ask their own origin
 * for the dashboard's API (where a cookie scoped to `/dashboard` on this host would go)
 * and say what their script can see.
 */
function thief(): { server: Deno.HttpServer<Deno.NetAddr>; seen: Seen[] } {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    seen.push({ url: request.url, headers: [...request.headers] });
    if (new URL(request.url).pathname.startsWith("/dashboard/api/")) {
      return Response.json({ csrf: "none here" });
    }
    return new Response(
      `<!doctype html><title>other port</title><body><script>
(async () => {
  for (const path of ["/dashboard/api/session", "/dashboard/api/overview"]) {
    await fetch(path, { credentials: "include" }).catch(() => {});
  }
  // The dashboard's tabs share their session over a BroadcastChannel: ask it too.
  const tabs = new BroadcastChannel("agent-dashboard-session");
  let borrowed = "";
  tabs.onmessage = (e) => { borrowed += JSON.stringify(e.data); };
  tabs.postMessage("ask");
  await new Promise((resolve) => setTimeout(resolve, 500));
  window.found = { cookie: document.cookie, session: sessionStorage.length, local: localStorage.length, borrowed };
})();
</script></body>`,
      { headers: { "content-type": "text/html" } },
    );
  });
  return { server, seen };
}

/** What the other port's page found in its script's reach, once it has looked. */
async function found(page: Page): Promise<unknown> {
  await page.waitForFunction(() => (globalThis as { found?: unknown }).found !== undefined);
  return await page.evaluate(() => (globalThis as { found?: unknown }).found);
}

Deno.test({
  name:
    "dashboard credential: a server on another loopback port gets nothing after a link click, a cross-site hop or the same tab",
  ...T,
  async fn() {
    const other = thief();
    // Another site (`localhost` is not `127.0.0.1`) that sends the browser on to the port.
    const hop = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
      other.seen.push({ url: request.url, headers: [...request.headers] });
      return Response.redirect(`http://127.0.0.1:${other.server.addr.port}/dashboard/landing`, 302);
    });
    const direct = `http://127.0.0.1:${other.server.addr.port}/dashboard/report`;
    const hopUrl = `http://localhost:${hop.addr.port}/hop`;
    await using hub = await startDashboardHub({
      replies: [`Read [the report](${direct}) or [the mirror](${hopUrl}).`],
    });
    const browser = await launch();
    try {
      const { context, page, problems } = await signedIn(browser, await hub.loginUrl());
      const token = await page.evaluate((key) => sessionStorage.getItem(key) ?? "", SESSION_KEY);
      assert.match(token, /^[\w-]{43}$/);
      const { csrf } = JSON.parse((await pageApi(page, "session")).text) as { csrf: string };

      await page.goto(`${hub.base}/dashboard/#/conversations`);
      await ready(page);
      await page.fill("#message", "where is the report?");
      await page.keyboard.press("Enter");
      await page.waitForSelector(`.msg.assistant a[href='${direct}']`);

      // (a) A loopback link in the model's answer, opened in a new tab by a click.
      const [report] = await Promise.all([
        context.waitForEvent("page"),
        page.click(`.msg.assistant a[href='${direct}']`),
      ]);
      assert.deepEqual(await found(report), { cookie: "", session: 0, local: 0, borrowed: "" });
      // (b) A link to another site that hops to the port.
      const [landing] = await Promise.all([
        context.waitForEvent("page"),
        page.click(`.msg.assistant a[href='${hopUrl}']`),
      ]);
      assert.equal(new URL(landing.url()).port, String(other.server.addr.port));
      assert.deepEqual(await found(landing), { cookie: "", session: 0, local: 0, borrowed: "" });
      // (c) The other port opened in the dashboard's own tab.
      await page.goto(`http://127.0.0.1:${other.server.addr.port}/dashboard/`);
      assert.deepEqual(await found(page), { cookie: "", session: 0, local: 0, borrowed: "" });

      // The other port was asked for its pages and its "API" each time, and nothing it
      // received carries the credential.
      const paths = other.seen.map((s) => new URL(s.url).pathname);
      for (const path of ["/dashboard/report", "/hop", "/dashboard/landing", "/dashboard/"]) {
        assert.ok(paths.includes(path), `${path} in ${paths}`);
      }
      assert.ok(paths.filter((p) => p === "/dashboard/api/session").length >= 3, String(paths));
      for (const { url, headers } of other.seen) {
        assert.deepEqual(headers.filter(([name]) => name === "cookie"), [], url);
        const all = `${url}\n${headers.map(([n, v]) => `${n}: ${v}`).join("\n")}`;
        assert.ok(!all.includes(token), `the session token reached ${url}`);
        assert.ok(!all.includes(csrf), `the CSRF token reached ${url}`);
      }

      // Back in the dashboard's tab: still signed in, with the same token.
      await page.goto(`${hub.base}/dashboard/#/overview`);
      await ready(page);
      assert.equal(await page.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY), token);
      assert.deepEqual(await context.cookies(), []);
      assert.deepEqual(problems, []);
      await context.close();
    } finally {
      await browser.close();
      await other.server.shutdown();
      await hop.shutdown();
    }
  },
});
