/**
 * The dashboard's Network page over a real network: agent A with two strangers (B and
 * C, each on its own spine on workerd) asking to connect. In Chromium the page lists
 * both requests; Accept makes B a contact (B's side sees the accept), Block blocks C,
 * Unblock forgets C (the same calls as `agent net accept`, `block` and `remove`).
 */
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { ARTIFACTS, CHROMIUM, pageApi, signInCode } from "../dashboard/_browser.ts";
import { controlHandler, dashboard, dashboardNetwork } from "@agent/hub";
import { startAgent, type TestAgent } from "../hub/_agents.ts";
import { until } from "../_poll.ts";

Deno.test({
  name:
    "dashboard network: requests accepted and blocked, a blocked peer unblocked, as agent net does",
  ignore: CHROMIUM === undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const agents: TestAgent[] = [];
    let server: Deno.HttpServer<Deno.NetAddr> | undefined;
    try {
      const a = await startAgent("a");
      agents.push(a);
      const b = await startAgent("b");
      agents.push(b);
      const c = await startAgent("c");
      agents.push(c);
      await b.node.add(a.address, "hello from <b>B</b>");
      await c.node.add(a.address, "C here");
      await until(
        "A holds both requests",
        async () =>
          (await a.node.state.contacts()).filter((x) => x.state === "pending_in").length === 2,
      );
      let port = 0;
      const door = (
        status: () => Record<string, unknown>,
        authorizeCode: (request: Request) => boolean,
      ) =>
        dashboard({
          lang: "en",
          now: Date.now,
          status,
          authorizeCode,
          recentEvents: () => Promise.resolve([]),
          network: dashboardNetwork({ node: () => a.node, lang: "en" }),
        });
      server = Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen() {} },
        controlHandler({
          pid: 1,
          version: "test",
          startedAt: Date.now(),
          home: a.home,
          dataDir: a.paths.dataDir,
          get port() {
            return port;
          },
          token: "t",
          now: Date.now,
          heartbeatAt: () => undefined,
          spend: () => ({}),
          net: () => ({}),
          dashboard: door,
        }),
      );
      port = server.addr.port;
      const base = `http://127.0.0.1:${port}`;
      const browser = await chromium.launch({ executablePath: CHROMIUM!, args: ["--no-sandbox"] });
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        const problems: string[] = [];
        page.on("pageerror", (e) => problems.push(String(e)));
        // This hub has no event bus and no desk: their streams answer 404, so only
        // script errors count here (the full hub's pages are checked in dashboard_test).

        await page.goto(`${base}/dashboard/#code=${await signInCode(base, "t")}`);
        await page.waitForSelector("main[data-ready='true']");
        await page.goto(`${base}/dashboard/#/network`);
        await page.waitForSelector(`tr[data-address='${b.address}']`, { timeout: 10_000 }).catch(
          async (error) => {
            throw new Error(`${error}: ${await page.textContent("body")} ${problems.join("; ")}`);
          },
        );
        const text = await page.textContent("main") ?? "";
        assert.ok(text.includes(a.address), "the own address");
        assert.ok(text.includes("hello from <b>B</b>"), "a peer's note shown as text");
        assert.equal(await page.locator("main b").count(), 0);
        assert.equal(
          await page.locator("tr[data-address] button[data-action='accept']").count(),
          2,
        );
        await Deno.mkdir(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: `${ARTIFACTS}network-desktop.png`, fullPage: true });

        await page.click(`tr[data-address='${b.address}'] button[data-action='accept']`);
        await until(
          "B sees the accept",
          async () => (await b.node.state.contact(a.address))?.state === "accepted",
        );
        await page.waitForFunction(
          (addr) =>
            document.querySelector(`tr[data-address='${addr}']`)?.textContent?.includes("contact"),
          b.address,
        );

        await page.click(`tr[data-address='${c.address}'] button[data-action='block']`);
        await page.waitForSelector(`tr[data-address='${c.address}'] button[data-action='unblock']`);
        assert.equal((await a.node.state.contact(c.address))?.state, "blocked");
        await page.click(`tr[data-address='${c.address}'] button[data-action='unblock']`);
        await page.waitForFunction(
          (addr) => !document.querySelector(`tr[data-address='${addr}']`),
          c.address,
        );
        assert.equal(await a.node.state.contact(c.address), undefined);

        // Accepting an address that is not asking (C was forgotten): the CLI's sentence.
        const accept = await pageApi(page, "network/accept", {
          method: "POST",
          body: { address: c.address },
        });
        const refused = [accept.status, JSON.parse(accept.text)];
        assert.equal(refused[0], 400, JSON.stringify(refused));
        assert.equal(typeof (refused[1] as { detail?: string }).detail, "string");
        await page.setViewportSize({ width: 390, height: 844 });
        // On a phone each contact is a block of labelled lines: its buttons within reach,
        // nothing to scroll sideways for.
        const reach = await page.$eval("table.contacts", (table) => ({
          scroll: table.parentElement!.scrollWidth - table.parentElement!.clientWidth,
          right: Math.max(
            ...[...table.querySelectorAll("button")].map((b) => b.getBoundingClientRect().right),
          ),
          label: getComputedStyle(table.querySelector("td[data-label]")!, "::before").content,
        }));
        assert.equal(reach.scroll, 0, JSON.stringify(reach));
        assert.ok(reach.right <= 390, JSON.stringify(reach));
        assert.equal(reach.label, '"State"');
        await page.screenshot({ path: `${ARTIFACTS}network-phone.png`, fullPage: true });
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }
    } finally {
      await server?.shutdown();
      for (const agent of agents) await agent.close();
    }
  },
});
