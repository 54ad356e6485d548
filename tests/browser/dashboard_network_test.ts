/**
 * The dashboard's Network page over a real network: agent A with two strangers (B and
 * C, each on its own spine on workerd) asking to connect. In Chromium the page lists
 * both requests; Accept makes B a contact (B's side sees the accept), Block blocks C,
 * Unblock forgets C (the same calls as `agent net accept`, `block` and `remove`). The
 * overview tells D's request as a sentence with its sender and an Accept button, the
 * doorbell's state in words and its rings counted in the singular (issue 39, W22).
 */
import assert from "node:assert/strict";
import { ARTIFACTS, CHROMIUM, launch, pageApi, signInCode } from "../dashboard/_browser.ts";
import { appendNetEvent, controlHandler, dashboard, dashboardNetwork } from "@agent/hub";
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
      const d = await startAgent("d");
      agents.push(d);
      await b.node.add(a.address, "hello from <b>B</b>");
      await c.node.add(a.address, "C here");
      await d.node.add(a.address, "D would like to talk");
      await until(
        "A holds the three requests",
        async () =>
          (await a.node.state.contacts()).filter((x) => x.state === "pending_in").length === 3,
      );
      // Another owner event, whose code the overview must not show.
      await appendNetEvent(a.paths.netDir, {
        ts: Math.floor(Date.now() / 1000),
        type: "model.failover",
        role: "brain",
        stand_in: "fast",
        text: "The brain model could not be reached; fast answers instead.",
      });
      // The owner events A's node wrote (its contact requests), as the hub's log serves them.
      const recentEvents = async () =>
        (await Deno.readTextFile(`${a.paths.netDir}/events.jsonl`)).split("\n")
          .filter((line) => line !== "").map((line) => JSON.parse(line));
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
          recentEvents,
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
          // The doorbell is open (link websocket) and rang once.
          net: () => ({
            configured: true,
            link: "websocket",
            state: "polling",
            ready: true,
            address: a.address,
            doorbell: { setting: "auto", connects: 1, reconnects: 0, rings: 1, fallbacks: 0 },
          }),
          dashboard: door,
        }),
      );
      port = server.addr.port;
      const base = `http://127.0.0.1:${port}`;
      const browser = await launch();
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        const problems: string[] = [];
        page.on("pageerror", (e) => problems.push(String(e)));
        // This hub has no event bus and no desk: their streams answer 404, so only
        // script errors count here (the full hub's pages are checked in dashboard_test).

        await page.goto(`${base}/dashboard/#code=${await signInCode(base, "t")}`);
        await page.waitForSelector("main[data-ready='true']");
        // The overview: sentences, not event codes; D's request with its sender and Accept.
        const overview = await page.textContent("main") ?? "";
        for (const code of ["net.contact_request", "model.failover"]) {
          assert.ok(!overview.includes(code), `no raw ${code} in: ${overview}`);
        }
        assert.ok(overview.includes("The brain model could not be reached"), overview);
        assert.ok(
          overview.includes(`(${d.address}) asks to become a contact: “D would like to talk”`),
          overview,
        );
        assert.ok(overview.includes("listening on the doorbell"), overview);
        assert.ok(!overview.includes("polling"), overview);
        assert.ok(overview.includes("Doorbell: auto, 1 ring"), overview);
        assert.ok(!overview.includes("1 rings"), overview);
        await Deno.mkdir(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: `${ARTIFACTS}overview-events-desktop.png`, fullPage: true });
        await page.setViewportSize({ width: 390, height: 844 });
        await page.screenshot({ path: `${ARTIFACTS}overview-events-phone.png`, fullPage: true });
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.click(`ul.events button[data-action='accept'][data-address='${d.address}']`);
        await until(
          "D sees the accept from the overview",
          async () => (await d.node.state.contact(a.address))?.state === "accepted",
        );
        await page.waitForFunction(() =>
          document.querySelector("ul.events")?.textContent?.includes("is now a contact.")
        );
        // In Turkish too.
        await page.selectOption("#lang", "tr");
        await page.waitForSelector("main[data-ready='true']");
        const turkish = await page.textContent("main") ?? "";
        assert.ok(turkish.includes("kişi olmak istiyor"), turkish);
        assert.ok(turkish.includes("kapı zili dinleniyor"), turkish);
        assert.ok(turkish.includes("Kapı zili: auto, 1 çalma"), turkish);
        assert.ok(!turkish.includes("Contact request"), turkish);
        await page.selectOption("#lang", "en");

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
