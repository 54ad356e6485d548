/**
 * The dashboard's Network page with a real universe on workerd and two agents on their
 * own spines (workerd too): the digest (gathered conversations and told digests, as
 * text), and the universe listing: Join with an owner, an about line and links, links
 * turned off, Leave, each through the same functions as `agent net universe join |
 * leave` (the profile, the card, the universe's own listing checked); a field past its
 * length refused with the command's sentence; light and dark with axe-core, desktop
 * and phone screenshots, and Turkish.
 */
import assert from "node:assert/strict";
import {
  ARTIFACTS,
  CHROMIUM,
  launch,
  pageApi,
  signInCode,
  useTheme,
} from "../dashboard/_browser.ts";
import { seriousViolations } from "../dashboard/_axe.ts";
import {
  appendNetEvent,
  controlHandler,
  dashboard,
  dashboardNetwork,
  joinUniverse,
  NetDigest,
  readNetEvents,
  UniverseClient,
  UniverseReporter,
} from "@agent/hub";
import { startAgent, type TestAgent } from "../hub/_agents.ts";
import { type RunningUniverse, startUniverse } from "../universe/_harness.ts";
import { until } from "../_poll.ts";

Deno.test({
  name:
    "dashboard network: the digest, and the universe listing joined, links off, left, as agent net universe does",
  ignore: CHROMIUM === undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const agents: TestAgent[] = [];
    let universe: RunningUniverse | undefined;
    let server: Deno.HttpServer<Deno.NetAddr> | undefined;
    try {
      universe = await startUniverse();
      const net = { universe: universe.host };
      const a = await startAgent("a", { net });
      agents.push(a);
      const b = await startAgent("b", { net });
      agents.push(b);
      // B and A are contacts who wrote each other; B is listed (so A's link can show).
      await b.node.add(a.address, "hi");
      await until(
        "A holds B's request",
        async () => (await a.node.state.contact(b.address))?.state === "pending_in",
      );
      await a.node.accept(b.address);
      await until(
        "B sees the accept",
        async () => (await b.node.state.contact(a.address))?.state === "accepted",
      );
      await b.node.send(a.address, "ping");
      await until(
        "A counts B's message",
        async () => ((await a.node.state.counts()).peers[b.address]?.in ?? 0) > 0,
      );
      await joinUniverse(b.node, new UniverseClient(b.node, universe.host), undefined, {
        owner: "Bora",
        links: true,
      });

      // The digest: one conversation gathered, one digest told before.
      const digest = new NetDigest({
        mode: "batched",
        lang: "en",
        events: { publish: () => Promise.reject(new Error("not in this test")) },
        file: `${a.paths.netDir}/digest.json`,
        gatherMs: 3_600_000,
      });
      await digest.record({
        address: b.address,
        name: "Bora <img src=x onerror=alert(1)>",
        thread: "t1",
        asked: "Do you play chess?",
        answered: "Sometimes, on Sundays.",
      });
      const told = Math.floor(Date.now() / 1000) - 3_600;
      await appendNetEvent(a.paths.netDir, {
        ts: told,
        type: "net.digest",
        conversations: [{
          address: b.address,
          name: "Bora",
          thread: "t0",
          asked: "Tea or coffee?",
          answered: "Tea.",
          turns: 2,
          first_ts: told - 60,
          last_ts: told - 30,
        }],
        more: 3,
        text: "1 conversation",
      });

      let port = 0;
      const lang = "en";
      // The hub's reporter (not started: no rounds), told of each act as the hub tells it.
      const reporter = new UniverseReporter({ node: a.node, subs: undefined });
      const network = () =>
        dashboardNetwork({
          node: () => a.node,
          lang,
          universeHost: () => universe!.host,
          subs: () => undefined,
          digestMode: () => "batched",
          digests: async () =>
            (await readNetEvents(a.paths.netDir, 0)).filter((e) =>
              (e as { type?: string }).type === "net.digest"
            ),
          gathered: () => digest.gathered(),
          universeChanged: () => reporter.refresh(),
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
          net: () => ({
            configured: true,
            state: "polling",
            address: a.address,
            universe: reporter.status(),
          }),
          dashboard: (status, authorizeCode) =>
            dashboard({
              lang,
              now: Date.now,
              status,
              authorizeCode,
              recentEvents: () => Promise.resolve([]),
              network: network(),
            }),
        }),
      );
      port = server.addr.port;
      const base = `http://127.0.0.1:${port}`;
      // deno-lint-ignore no-explicit-any
      const listingOf = async (address: string): Promise<any> => {
        const res = await fetch(`${universe!.url}/api/taus/${address}`);
        return res.status === 200 ? await res.json() : res.status;
      };
      const browser = await launch();
      try {
        const context = await browser.newContext({
          viewport: { width: 1280, height: 800 },
          bypassCSP: true,
        });
        const page = await context.newPage();
        const problems: string[] = [];
        page.on("pageerror", (e) => problems.push(String(e)));
        page.on("dialog", (d) => {
          problems.push(`dialog: ${d.message()}`);
          void d.dismiss();
        });
        await page.goto(`${base}/dashboard/#code=${await signInCode(base, "t")}`);
        await page.waitForSelector("main[data-ready='true']");
        await page.goto(`${base}/dashboard/#/network`);
        await page.waitForSelector("#u-state");
        await page.waitForSelector("#d-gathered");

        // The digest, as text.
        const digestText = await page.textContent("#digest") ?? "";
        assert.ok(digestText.includes("Bora <img src=x onerror=alert(1)>"), digestText);
        assert.ok(digestText.includes("“Do you play chess?”"), digestText);
        assert.ok(digestText.includes("“Tea.”") && digestText.includes("and 3 more"), digestText);
        assert.match(digestText, /Gathered: 1 conversation\(s\), told \d\d\.\d\d\.\d{4} \d\d:\d\d/);
        assert.equal(await page.locator("#digest img").count(), 0);

        // Not listed yet.
        assert.match(await page.textContent("#u-state") ?? "", /not listed/);
        assert.equal(await listingOf(a.address), 404);

        // Join with an owner, an about line and links on.
        await page.fill("#u-owner", "Ada L.");
        await page.fill("#u-about", "first on the map");
        await page.check("#u-links");
        await page.click("#u-join");
        await page.waitForFunction(() =>
          / is listed in /.test(document.getElementById("universe-said")?.textContent ?? "")
        );
        const said = await page.textContent("#universe-said") ?? "";
        assert.ok(said.startsWith(`${a.address} is listed in ${universe.host} (`), said);
        await page.waitForSelector("#u-listing");
        const profile = await a.node.state.profile();
        assert.equal(profile.universe_join, true);
        assert.equal(profile.universe_owner, "Ada L.");
        assert.equal(profile.universe_about, "first on the map");
        const listed = await listingOf(a.address);
        assert.equal(listed.owner, "Ada L.");
        assert.equal(listed.about, "first on the map");
        // The hub's own status says so at once, and the overview with it (issue 39, W13).
        const status = await (await fetch(`${base}/status`, {
          headers: { authorization: "Bearer t" },
        })).json() as { net: { universe: { joined: boolean } } };
        assert.equal(status.net.universe.joined, true);
        await page.goto(`${base}/dashboard/#/overview`);
        await page.waitForSelector("#universe-line");
        assert.equal(
          await page.textContent("#universe-line"),
          `Universe: listed on ${universe.host}`,
        );
        await page.goto(`${base}/dashboard/#/network`);
        await page.waitForSelector("#u-listing");
        // A link shows once both sides reported it: B reports again (its hub's round),
        // A joins again from the page (the same call: it reports too).
        await joinUniverse(b.node, new UniverseClient(b.node, universe.host), undefined, {});
        await page.click("#u-join");
        await page.waitForSelector(`#u-listing li:has-text('${b.address}')`);
        assert.deepEqual(
          (await listingOf(a.address)).links.map((l: { peer: string }) => l.peer),
          [b.address],
        );
        // Where the agent stands is said once (W14), its page linked with the scheme the
        // universe speaks (a loopback universe over http: no https address).
        const section = await page.textContent("#n-universe + *") ?? "";
        assert.equal(
          (await page.textContent("#u-state") ?? "").split("Listed in").length - 1,
          1,
        );
        assert.doesNotMatch(await page.textContent("section:has(#n-universe)") ?? "", /Listed as/);
        assert.equal(
          await page.getAttribute("#u-state a", "href"),
          `http://${universe.host}/universe#${a.address}`,
        );
        assert.doesNotMatch(await page.textContent("#universe-said") ?? "", /https:/, section);
        await Deno.mkdir(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: `${ARTIFACTS}network-universe-desktop.png`, fullPage: true });

        // Links off: the profile says so and the universe lists no link.
        await page.click("#u-links-toggle");
        await page.waitForFunction(() =>
          /links off/.test(document.getElementById("u-state")?.textContent ?? "")
        );
        assert.equal((await a.node.state.profile()).universe_links, false);
        assert.deepEqual((await listingOf(a.address)).links, []);

        // A field past its length: the command's sentence, nothing written.
        const join = await pageApi(page, "network/universe/join", {
          method: "POST",
          body: { owner: "x".repeat(61) },
        });
        const refused = [join.status, (JSON.parse(join.text) as { detail: string }).detail];
        assert.deepEqual(refused, [400, "--owner has more than 60 characters."]);
        assert.equal((await a.node.state.profile()).universe_owner, "Ada L.");

        // Accessibility, light and dark.
        for (const theme of ["light", "dark"] as const) {
          await useTheme(page, theme);
          await page.waitForSelector("#u-listing");
          await page.waitForSelector("#d-gathered");
          assert.deepEqual(await seriousViolations(page), [], theme);
        }
        await page.setViewportSize({ width: 390, height: 844 });
        await page.screenshot({ path: `${ARTIFACTS}network-universe-phone.png`, fullPage: true });
        await page.setViewportSize({ width: 1280, height: 800 });

        // Leave: the profile is marked, the universe lists the agent no more.
        await page.click("#u-leave");
        await page.waitForFunction(() =>
          / left /.test(document.getElementById("universe-said")?.textContent ?? "")
        );
        assert.equal((await a.node.state.profile()).universe_join, false);
        assert.equal(await listingOf(a.address), 404);
        assert.match(await page.textContent("#u-state") ?? "", /not listed/);
        // Said once, not again below it.
        assert.equal(
          (await page.textContent("section:has(#n-universe)") ?? "").match(/not list/g)?.length,
          1,
        );

        // Turkish.
        await page.selectOption("#lang", "tr");
        await page.waitForSelector("#u-state");
        await page.waitForFunction(() =>
          /Evren/.test(document.getElementById("n-universe")?.textContent ?? "")
        );
        assert.match(await page.textContent("#digest") ?? "", /Ağ özeti/);
        await page.setViewportSize({ width: 390, height: 844 });
        await page.screenshot({
          path: `${ARTIFACTS}network-universe-tr-phone.png`,
          fullPage: true,
        });
        assert.deepEqual(problems, []);
        await context.close();
      } finally {
        await browser.close();
      }
    } finally {
      await server?.shutdown();
      for (const agent of agents) await agent.close();
      await universe?.stop();
    }
  },
});
