/**
 * The universe's map in headless Chromium (playwright-core, WebGL through sigma.js)
 * with 0, 5 and 500 agents (100,000 in universe_map_scale_test.ts), at a desktop size and on a 390×844 phone: the
 * empty-state sentence, labels that never overlap (their boxes are checked), the
 * legend, a chosen agent's links highlighted and its card, the folded search with
 * keyboard and Enter, the phone layout with search and card in view without
 * scrolling, the levels of detail, and a malformed escape in the fragment or query
 * (issue 27 S6). Screenshots go to `tests/universe/artifacts/`.
 */
import assert from "node:assert/strict";
import { seed, startUniverse } from "../universe/_harness.ts";
import {
  agentAt,
  agents,
  ARTIFACTS,
  DESKTOP,
  inView,
  labelBoxes,
  open,
  PHONE,
  T,
  withBrowser,
} from "./_universe_map.ts";

Deno.test({
  name: "map in Chromium, 0 agents: the empty-state sentence, figures of zero, no error",
  ...T,
  async fn() {
    const u = await startUniverse();
    try {
      await withBrowser(async (browser) => {
        for (const [viewport, tag] of [[DESKTOP, "desktop"], [PHONE, "phone"]] as const) {
          for (const path of ["/universe", "/tr/universe"]) {
            const { page, problems } = await open(browser, `${u.url}${path}`, viewport);
            await page.waitForSelector("#empty:not([hidden])");
            const sentence = await page.textContent("#empty");
            assert.equal(
              sentence,
              path.startsWith("/tr")
                ? "Bu evrene henüz kimse katılmadı. İlk siz olun: agent net universe join komutunu çalıştırın."
                : "Nobody has joined this universe yet. Be the first: run agent net universe join.",
            );
            assert.equal(
              await page.textContent("#stats"),
              path.startsWith("/tr")
                ? "0 ajan · 0 çevrimiçi · 0 bağlantı · 0 mesaj"
                : "0 agents · 0 online · 0 links · 0 messages",
            );
            // Nothing to explain or choose: no legend, no card panel (issue 39 U06).
            assert.equal(await page.isVisible("#legend"), false, "the legend shows");
            assert.equal(await page.isVisible("#panel-wrap"), false, "the panel shows");
            await page.screenshot({
              path: `${ARTIFACTS}map-0-${tag}${path.startsWith("/tr") ? "-tr" : ""}.png`,
            });
            assert.deepEqual(problems, []);
            await page.close();
          }
          for (const path of ["/nowhere", "/tr/nowhere"]) {
            const missing = await browser.newPage({ viewport });
            const res = await missing.goto(`${u.url}${path}`);
            assert.equal(res?.status(), 404);
            assert.match(await missing.textContent("h1") ?? "", /^404 · /);
            await missing.screenshot({
              path: `${ARTIFACTS}404${path.replace(/\//g, "-")}-${tag}.png`,
            });
            await missing.close();
          }
          const { page, problems } = await open(browser, `${u.url}/?lang=en`, viewport);
          await page.waitForFunction(() =>
            document.getElementById("fig-taus")?.textContent === "0"
          );
          await page.screenshot({ path: `${ARTIFACTS}landing-0-${tag}.png`, fullPage: true });
          assert.deepEqual(problems, []);
          await page.close();
        }
      });
    } finally {
      await u.stop();
    }
  },
});

Deno.test({
  name:
    "map in Chromium, 5 agents: labels, legend, click highlights links and opens the card, search, phone",
  ...T,
  async fn() {
    const u = await startUniverse();
    try {
      await seed(u, agents(5));
      await withBrowser(async (browser) => {
        const { page, problems } = await open(browser, `${u.url}/universe`);
        await page.waitForSelector("body[data-drawn='5'][data-labels]");
        await page.waitForTimeout(300);
        assert.equal(
          await page.textContent("#stats"),
          "5 agents · 5 online · 10 links · 30 messages",
        );
        assert.equal(await labelBoxes(page), 5, "five agents, five labels");
        const labels = await page.$$eval("#labels .label", (l) => l.map((e) => e.textContent));
        assert.ok(labels.includes("Özlem Işık"), labels.join());
        assert.ok(labels.includes("A name far too long to fit…"), labels.join());
        for (
          const key of [
            "Agent, online",
            "Agent, offline",
            "Link (thicker: more messages)",
            "Chosen agent and its links",
          ]
        ) {
          assert.ok(await page.isVisible(`#legend li:has-text("${key}")`), key);
        }
        assert.equal(await page.isVisible(`#legend li:has-text("Many agents")`), false);
        await page.screenshot({ path: `${ARTIFACTS}map-5-desktop.png` });
        // A click on an agent: its card, its links highlighted, the others faded.
        const at = await agentAt(page, "agent-3.example");
        await page.mouse.click(at.x, at.y);
        await page.waitForSelector("body[data-selected='agent-3.example']");
        await page.waitForSelector("#panel h2");
        assert.equal(await page.textContent("#panel h2"), "Agent 3");
        assert.equal(new URL(page.url()).hash, "#agent-3.example");
        assert.equal(await page.getAttribute("body", "data-highlighted"), "4");
        const card = await page.textContent("#panel") ?? "";
        assert.match(
          card,
          /Joined: \d\d\.\d\d\.\d{4} \d\d:\d\d · Last seen: \d\d\.\d\d\.\d{4} \d\d:\d\d/,
        );
        assert.match(card, /Links \(4\)/);
        assert.match(card, /\(1 message\)/);
        assert.match(card, /\(4 messages\)/);
        assert.ok(await page.isVisible("#labels .label.chosen"));
        await page.screenshot({ path: `${ARTIFACTS}map-5-desktop-selected.png` });
        // Search: folded, from one letter, arrows and Enter.
        await page.fill("#search", "ozlem");
        await page.waitForSelector("#results li.hit");
        assert.equal(await page.textContent("#results li.hit .name"), "Özlem Işık");
        await page.fill("#search", "");
        await page.type("#search", "s");
        await page.waitForFunction(() => document.querySelectorAll("#results li.hit").length > 0);
        await page.fill("#search", "agent");
        await page.waitForFunction(() => document.querySelectorAll("#results li.hit").length === 5);
        await page.press("#search", "ArrowDown");
        await page.press("#search", "ArrowDown");
        assert.equal(
          await page.getAttribute("#results li[aria-selected='true']", "id"),
          "result-1",
        );
        const second = await page.textContent("#result-1 .addr");
        await page.press("#search", "Enter");
        await page.waitForFunction((a) => document.body.dataset.selected === a, second);
        await page.fill("#search", "zzz");
        await page.waitForSelector("#results li.empty");
        assert.equal(await page.textContent("#results li.empty"), "No agent matches that search.");
        // Enter at once, before any list shows: the first match opens.
        await page.fill("#search", "");
        await page.type("#search", "Işık");
        await page.press("#search", "Enter");
        await page.waitForSelector("body[data-selected='agent-1.example']");
        assert.equal(await page.textContent("#panel h2"), "Özlem Işık");
        assert.deepEqual(problems, []);
        await page.close();
        // The phone: search and the chosen agent's card without scrolling.
        const phone = await open(browser, `${u.url}/universe#agent-1.example`, PHONE);
        await phone.page.waitForSelector("body[data-selected='agent-1.example']");
        await phone.page.waitForSelector("#panel h2");
        await phone.page.waitForTimeout(500);
        inView(await phone.page.locator("#search").boundingBox());
        inView(await phone.page.locator("#panel h2").boundingBox());
        inView(await phone.page.locator("#panel .address").boundingBox());
        inView(await phone.page.locator("#legend").boundingBox());
        const chosen = await agentAt(phone.page, "agent-1.example");
        const sheet = await phone.page.locator("#panel-wrap").boundingBox();
        assert.ok(chosen.y < sheet!.y, "the chosen agent is above the card");
        assert.equal(await phone.page.evaluate(() => document.scrollingElement!.scrollTop), 0);
        await labelBoxes(phone.page);
        await phone.page.screenshot({ path: `${ARTIFACTS}map-5-phone.png` });
        await phone.page.fill("#search", "a");
        await phone.page.waitForSelector("#results li.hit");
        inView(await phone.page.locator("#results").boundingBox());
        await phone.page.screenshot({ path: `${ARTIFACTS}map-5-phone-search.png` });
        assert.deepEqual(phone.problems, []);
        await phone.page.close();
        const landing = await open(browser, `${u.url}/?lang=en`, PHONE);
        await landing.page.waitForFunction(() =>
          document.getElementById("fig-taus")?.textContent === "5"
        );
        await landing.page.screenshot({ path: `${ARTIFACTS}landing-5-phone.png`, fullPage: true });
        await landing.page.close();
        const desk = await open(browser, `${u.url}/?lang=en`);
        await desk.page.waitForSelector("body[data-drawn='5'][data-labels]");
        await desk.page.screenshot({ path: `${ARTIFACTS}landing-5-desktop.png`, fullPage: true });
        assert.deepEqual([...landing.problems, ...desk.problems], []);
        await desk.page.close();
      });
    } finally {
      await u.stop();
    }
  },
});

Deno.test({
  name: "map in Chromium: a malformed escape in the fragment or the query breaks nothing (S6)",
  ...T,
  async fn() {
    const u = await startUniverse();
    try {
      await seed(u, agents(5));
      await withBrowser(async (browser) => {
        for (
          const path of [
            "/universe#%E0%A4%A",
            "/universe?x=%E0%A4%A#%E0%A4%A",
            "/tr/universe#%",
            "/#%E0%A4%A",
          ]
        ) {
          const { page, problems } = await open(browser, `${u.url}${path}`);
          await page.waitForSelector("body[data-drawn='5']");
          await page.reload();
          await page.waitForSelector("body[data-drawn='5']");
          assert.deepEqual(problems, [], path);
          if (path.startsWith("/universe#")) {
            // The map still works: a real fragment after the bad one opens its agent.
            await page.evaluate(() => (location.hash = "agent-4.example"));
            await page.waitForSelector("body[data-selected='agent-4.example']");
          }
          await page.close();
        }
      });
    } finally {
      await u.stop();
    }
  },
});

Deno.test({
  name: "map in Chromium, 500 agents: labels only where they fit, none overlapping, highlight",
  ...T,
  async fn() {
    const u = await startUniverse();
    try {
      await seed(u, agents(500));
      await withBrowser(async (browser) => {
        for (const [viewport, tag] of [[DESKTOP, "desktop"], [PHONE, "phone"]] as const) {
          const { page, problems } = await open(browser, `${u.url}/universe`, viewport);
          await page.waitForSelector("body[data-drawn='500'][data-labels]");
          await page.waitForTimeout(300);
          const shown = await labelBoxes(page);
          assert.ok(shown >= 10 && shown < 500, `${shown} labels`);
          await page.screenshot({ path: `${ARTIFACTS}map-500-${tag}.png` });
          await page.evaluate(() => (location.hash = "agent-250.example"));
          await page.waitForSelector("body[data-selected='agent-250.example']");
          await page.waitForTimeout(500);
          assert.equal(await page.getAttribute("body", "data-highlighted"), "4");
          await labelBoxes(page);
          assert.ok(await page.isVisible("#labels .label.chosen"));
          // The rest fade without turning the legend's offline grey, labels too (issue 39 U02).
          const fadedColour = await page.evaluate(() => {
            // deno-lint-ignore no-explicit-any
            const view = (globalThis as any).universeMap;
            const g = view.sigma.getGraph();
            const chosen = document.body.dataset.selected!;
            let colour: string | undefined;
            g.forEachNode((n: string, a: { kind: string; online: boolean }) => {
              if (colour || a.kind !== "agent" || !a.online || n === chosen) return;
              if (!g.hasEdge(chosen, n)) colour = view.sigma.getNodeDisplayData(n)?.color;
            });
            return colour;
          });
          assert.equal(fadedColour, "#2a5a34", "an online agent not linked: dimmed green");
          assert.ok(await page.$$eval("#labels .label.faded", (l) => l.length) > 0);
          assert.equal(
            await page.$eval("#labels .label.faded", (e) => getComputedStyle(e).opacity),
            "0.4",
          );
          assert.equal(await page.$$eval("#labels .label.chosen.faded", (l) => l.length), 0);
          // The chosen agent's label is not drawn through its own links (issue 39 U07).
          const crossings = await page.evaluate(() => {
            // deno-lint-ignore no-explicit-any
            const view = (globalThis as any).universeMap;
            const g = view.sigma.getGraph();
            const chosen = document.body.dataset.selected!;
            const map = document.getElementById("map")!.getBoundingClientRect();
            const r = document.querySelector("#labels .label.chosen")!.getBoundingClientRect();
            const box = { l: r.left - map.left, t: r.top - map.top, r: r.right - map.left };
            const b = r.bottom - map.top;
            const from = view.sigma.graphToViewport(g.getNodeAttributes(chosen));
            let hits = 0;
            for (const peer of g.neighbors(chosen)) {
              const to = view.sigma.graphToViewport(g.getNodeAttributes(peer));
              for (let i = 1; i <= 200; i++) {
                const x = from.x + (to.x - from.x) * i / 200;
                const y = from.y + (to.y - from.y) * i / 200;
                if (x > box.l + 1 && x < box.r - 1 && y > box.t + 1 && y < b - 1) {
                  hits++;
                  break;
                }
              }
            }
            return hits;
          });
          assert.equal(crossings, 0, "links drawn through the chosen agent's label");
          await page.screenshot({ path: `${ARTIFACTS}map-500-${tag}-selected.png` });
          assert.deepEqual(problems, []);
          await page.close();
        }
      });
    } finally {
      await u.stop();
    }
  },
});
