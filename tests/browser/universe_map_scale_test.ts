/**
 * The universe's map at scale in headless Chromium (issue 39): at 100,000 agents the
 * first view's groups carry their counts, the legend gives agents per dot and the zoom
 * level, and the agents are a few presses (or one click on a group) away (U03); at 500
 * agents linked agents sit near their peers, so links are short strokes, not chords
 * across the disc, a chosen agent's peers are drawn where the server put them, and the
 * links of the agent pointed at brighten (U05); and at 100,000 cells zoomed out, agents and
 * links zoomed in, a search that opens one, on the same seeded universe (seeding takes most of
 * the time). Desktop and phone, light and dark, en and tr; screenshots go to
 * `tests/universe/artifacts/`.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startBulkUniverse } from "../universe/_bulk.ts";
import { directoryStub, seed, startUniverse } from "../universe/_harness.ts";
import {
  agents,
  ARTIFACTS,
  DESKTOP,
  eachView,
  inView,
  labelBoxes,
  open,
  PHONE,
  T,
  type TestBrowser,
  withBrowser,
} from "./_universe_map.ts";

/** The groups' count labels drawn, as numbers. */
async function countLabels(page: Page): Promise<number[]> {
  const texts = await page.$$eval("#labels .label.count", (l) => l.map((e) => e.textContent));
  return texts.map((t) => {
    const m = /^([\d.,]+)( ?[kB])?$/.exec(t ?? "");
    assert.ok(m, `a count label reads '${t}'`);
    return Number(m[1]!.replace(/[.,](?=\d{3}\b)/g, "").replace(",", ".")) * (m[2] ? 1000 : 1);
  });
}

/**
 * Presses + until the map draws agents one by one; how many presses it took. After each
 * press the map settles: the zoom's animation ends, and 120 ms after the camera's last
 * move the map either asks for the area's agents (then draws them) or keeps its groups.
 * The page's area requests are counted to tell which, so no press waits on a guess.
 */
async function pressesToAgents(page: Page): Promise<number> {
  await page.evaluate(() => {
    // deno-lint-ignore no-explicit-any
    const w = globalThis as any;
    if (w.areaAsks !== undefined) return;
    w.areaAsks = 0;
    const fetch = w.fetch;
    w.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes("/api/map/area")) w.areaAsks++;
      return fetch(input, init);
    };
  });
  for (let presses = 1; presses <= 12; presses++) {
    // deno-lint-ignore no-explicit-any
    const before = await page.evaluate(() => (globalThis as any).areaAsks as number);
    await page.click("#zoom-in");
    await settled(page);
    // deno-lint-ignore no-explicit-any
    const asked = await page.evaluate(() => (globalThis as any).areaAsks as number) > before;
    if (asked) {
      await page.waitForSelector("body[data-layer='area']", { timeout: 10_000 });
      return presses;
    }
    assert.equal(await page.getAttribute("body", "data-layer"), "cells");
  }
  return Infinity;
}

/**
 * Waits until the camera stops moving and the map has chosen what to draw for where it
 * stopped: the wait's own timer is set after the map's 120 ms one, so it fires after it.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const camera = (globalThis as any).universeMap.sigma.getCamera();
    await new Promise<void>((done) => {
      const tick = () => camera.isAnimated() ? requestAnimationFrame(tick) : done();
      tick();
    });
    await new Promise((done) => setTimeout(done, 130));
  });
}

/**
 * Zoomed out cells, zoomed in agents and links, a search that opens one (issue 27, U01).
 * The pages ask for less motion: the search jumps to the agent.
 */
async function cellsAgentsSearch(browser: TestBrowser, url: string) {
  const { page, problems } = await open(browser, `${url}/universe`, DESKTOP, "dark", "reduce");
  await page.waitForSelector("body[data-layer='cells']");
  assert.match(
    await page.textContent("#stats") ?? "",
    /^100,000 agents · 100,000 online · 5,000 links · /,
  );
  assert.ok(await page.isVisible(`#legend li:has-text("Agents per dot")`));
  assert.equal(await page.getAttribute("body", "data-drawn"), "0");
  await page.screenshot({ path: `${ARTIFACTS}map-100k-desktop.png` });
  await page.fill("#search", "agent 4242");
  await page.press("#search", "Enter");
  await page.waitForSelector("body[data-selected='agent-4242.example'][data-layer='area']", {
    timeout: 20_000,
  });
  await page.waitForTimeout(800);
  const drawn = Number(await page.getAttribute("body", "data-drawn"));
  assert.ok(drawn > 50 && drawn <= 5000, `${drawn} agents drawn`);
  assert.equal(await page.getAttribute("body", "data-highlighted"), "2");
  // Its links by name and online, as the API says (issue 39 U01: were addresses, offline).
  const links = await page.$$eval("#panel ul.links a", (l) => l.map((e) => e.textContent));
  assert.equal(links.length, 2, links.join());
  for (const link of links) assert.match(link ?? "", /^Agent \d+ \(/);
  const peersOnline = await page.evaluate(() => {
    // deno-lint-ignore no-explicit-any
    const g = (globalThis as any).universeMap.sigma.getGraph();
    const chosen = document.body.dataset.selected!;
    return g.neighbors(chosen).map((n: string) => g.getNodeAttribute(n, "online"));
  });
  assert.deepEqual(peersOnline, [true, true]);
  assert.ok(await labelBoxes(page) > 5);
  await page.screenshot({ path: `${ARTIFACTS}map-100k-desktop-zoomed.png` });
  assert.deepEqual(problems, []);
  await page.close();
  const phone = await open(browser, `${url}/universe#agent-99.example`, PHONE, "dark", "reduce");
  await phone.page.waitForSelector(
    "body[data-selected='agent-99.example'][data-layer='area']",
    { timeout: 20_000 },
  );
  await phone.page.waitForTimeout(800);
  inView(await phone.page.locator("#panel h2").boundingBox());
  inView(await phone.page.locator("#search").boundingBox());
  await labelBoxes(phone.page);
  await phone.page.screenshot({ path: `${ARTIFACTS}map-100k-phone.png` });
  assert.deepEqual(phone.problems, []);
  await phone.page.close();
}

/**
 * Counts on the groups, a scale, the zoom level, agents in a few presses (U03). The pages
 * ask for less motion: each press jumps, and going back out is whole at the click.
 */
async function groupsScaleZoom(browser: TestBrowser, url: string) {
  await eachView(
    browser,
    url,
    "map-100k",
    async ({ page, scheme, tag, tr, shot }) => {
      await page.waitForSelector("body[data-layer='cells'][data-labels]");
      await page.waitForTimeout(400);
      // Counts on the groups, the fullest among them, none overlapping.
      const counts = await countLabels(page);
      assert.ok(counts.length >= 5, `${counts.length} groups labelled`);
      assert.ok(await labelBoxes(page) >= 5);
      const cells = await page.evaluate(() => {
        // deno-lint-ignore no-explicit-any
        const g = (globalThis as any).universeMap.sigma.getGraph();
        const n: number[] = [];
        g.forEachNode((_: string, a: { kind: string; degree: number }) => {
          if (a.kind === "cell") n.push(a.degree);
        });
        return n;
      });
      const max = Math.max(...cells), min = Math.min(...cells);
      assert.equal(cells.reduce((a, b) => a + b, 0), 100_000);
      assert.equal(Math.max(...counts), max, "the fullest group is labelled");
      // The scale: agents per dot, from the emptiest to the fullest.
      const grouped = (n: number) => n.toLocaleString(tr ? "tr-TR" : "en-GB");
      assert.equal(
        await page.textContent("#legend-cell"),
        tr
          ? `Nokta başına ajan: ${grouped(min)}–${grouped(max)}`
          : `Agents per dot: ${grouped(min)} to ${grouped(max)}`,
      );
      assert.ok(await page.isVisible("#legend-cell"));
      // The zoom level.
      assert.equal(
        await page.textContent("#zoom-level"),
        tr
          ? "Yakınlık ×1: her nokta bir grup; ajanlarını görmek için birini seçin"
          : "Zoom ×1: each dot is a group; choose one to see its agents",
      );
      assert.ok(await page.isVisible("#zoom-level"));
      await page.screenshot({ path: `${shot}.png` });
      // The presses depend on the screen, not the language: each screen zooms in one
      // language (the desktop English, the phone Turkish), so both zoom lines are read too.
      if (scheme === "dark" && tr === (tag === "phone")) {
        // From the whole universe to its agents: at most three presses of +.
        const presses = await pressesToAgents(page);
        assert.ok(presses <= 3, `${presses} presses of + to reach the agents`);
        await page.waitForTimeout(300);
        const drawn = Number(await page.getAttribute("body", "data-drawn"));
        assert.ok(drawn > 20 && drawn <= 5000, `${drawn} agents drawn`);
        assert.match(
          await page.textContent("#zoom-level") ?? "",
          tr ? /^Yakınlık ×[\d,]+: her nokta bir ajan$/ : /^Zoom ×[\d.]+: each dot is one agent$/,
        );
        assert.equal(await page.isVisible("#legend-cell"), false);
        await page.screenshot({ path: `${shot}-zoomed.png` });
        // Back out, at once (no glide asked for); one click on the fullest group opens
        // its agents.
        const back = await page.evaluate(() => {
          // deno-lint-ignore no-explicit-any
          const camera = (globalThis as any).universeMap.sigma.getCamera();
          document.getElementById("zoom-fit")!.click();
          return { gliding: camera.isAnimated(), ratio: camera.ratio };
        });
        assert.deepEqual(back, { gliding: false, ratio: 1 });
        await page.waitForSelector("body[data-layer='cells']");
        await page.waitForTimeout(800);
        const at = await page.evaluate(() => {
          // deno-lint-ignore no-explicit-any
          const sigma = (globalThis as any).universeMap.sigma;
          let found = { x: 0.5, y: 0.5, degree: -1 };
          sigma.getGraph().forEachNode(
            (_: string, a: { kind: string; degree: number; x: number; y: number }) => {
              if (a.kind === "cell" && a.degree > found.degree) found = a;
            },
          );
          const p = sigma.graphToViewport(found);
          const r = document.getElementById("map")!.getBoundingClientRect();
          return { x: r.left + p.x, y: r.top + p.y };
        });
        await page.mouse.click(at.x, at.y);
        await page.waitForSelector("body[data-layer='area']", { timeout: 5_000 });
      }
    },
    // The light view reads and takes a screenshot; the dark one zooms, last.
    { schemeInPlace: true, reducedMotion: true },
  );
}

/**
 * An area asked for while zooming in, answered only after the view went back out to the
 * whole universe, leaves the groups drawn (a CI run of stop 49 waited 30 s for them: the
 * late answer had replaced them with the zoomed-in agents). The page states no motion
 * preference, so the presses glide as they do for most people.
 */
async function lateAreaAnswer(browser: TestBrowser, url: string) {
  const { page, problems } = await open(browser, `${url}/universe`);
  await page.waitForSelector("body[data-layer='cells'][data-labels]");
  let release!: () => void;
  const held = new Promise<void>((done) => release = done);
  let asked = 0;
  await page.route("**/api/map/area?*", async (route) => {
    asked++;
    await held;
    await route.continue();
  });
  for (let presses = 1; asked === 0; presses++) {
    assert.ok(presses <= 6, "no area asked for in 6 presses of +");
    if (presses === 1) {
      const gliding = await page.evaluate(() => {
        document.getElementById("zoom-in")!.click();
        // deno-lint-ignore no-explicit-any
        return (globalThis as any).universeMap.sigma.getCamera().isAnimated();
      });
      assert.ok(gliding, "a press of + glides");
    } else {
      await page.click("#zoom-in");
    }
    await settled(page);
  }
  await page.click("#zoom-fit");
  await settled(page);
  assert.equal(await page.getAttribute("body", "data-layer"), "cells");
  const answered = page.waitForResponse("**/api/map/area?*");
  release();
  await answered;
  await page.waitForTimeout(300);
  assert.equal(await page.getAttribute("body", "data-layer"), "cells");
  assert.equal(await page.getAttribute("body", "data-drawn"), "0");
  assert.deepEqual(problems, []);
  await page.close();
}

Deno.test({
  name: "map in Chromium, 100,000 agents (seeded once for all steps)",
  ...T,
  async fn(t) {
    const u = await startBulkUniverse();
    try {
      // Links among the first 5,000 only: seeding 100,000 reports too would double the
      // ~80 s of seeding (the benchmark links them all).
      await u.seed(100_000, [1], 5_000);
      await withBrowser(async (browser) => {
        await t.step(
          "cells zoomed out, agents and links zoomed in, search opens one",
          () => cellsAgentsSearch(browser, u.url),
        );
        await t.step(
          "groups labelled with counts, a scale, the zoom level in the legend, agents in a few presses (U03)",
          () => groupsScaleZoom(browser, u.url),
        );
        await t.step(
          "an area answered after zooming back out leaves the groups drawn",
          () => lateAreaAnswer(browser, u.url),
        );
      });
    } finally {
      await u.stop();
    }
  },
});

/** A link as the renderer draws it: its ends, colour and length in map units. */
interface DrawnLink {
  a: string;
  b: string;
  colour: string;
  length: number;
}

/** The links the renderer draws now. */
async function drawnLinks(page: Page): Promise<DrawnLink[]> {
  return await page.evaluate(() => {
    // deno-lint-ignore no-explicit-any
    const sigma = (globalThis as any).universeMap.sigma;
    const g = sigma.getGraph();
    return g.edges().filter((e: string) => !sigma.getEdgeDisplayData(e)?.hidden)
      .map((e: string) => {
        const [a, b] = g.extremities(e);
        const p = g.getNodeAttributes(a), q = g.getNodeAttributes(b);
        return {
          a,
          b,
          colour: sigma.getEdgeDisplayData(e).color as string,
          length: Math.hypot(p.x - q.x, p.y - q.y),
        };
      });
  });
}

function median(values: number[]): number {
  return values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

Deno.test({
  name:
    "map in Chromium, 500 agents: linked agents sit near each other, links are short and all drawn, pointed-at links brighten (U05)",
  ...T,
  async fn() {
    const u = await startUniverse({ rebuildSeconds: 3_600 });
    try {
      await seed(u, agents(500));
      // The build the alarm runs a moment after writes, now: it lays the map out.
      const built = await (await directoryStub(u)).fetch("https://directory.internal/build", {
        method: "POST",
      });
      assert.equal(built.status, 200, await built.text());
      const places = await (await fetch(`${u.url}/api/map/places?address=agent-7.example`))
        .json() as { x: number; y: number; peers: Record<string, [number, number]> };
      await withBrowser(async (browser) => {
        await eachView(
          browser,
          u.url,
          "map-500-layout",
          async ({ page, viewport, scheme, tr, shot }) => {
            await page.waitForSelector("body[data-drawn='500'][data-labels]");
            await page.waitForTimeout(300);
            // All 1,000 links drawn, each a short stroke (hashed places: 0.37, chords).
            const links = await drawnLinks(page);
            assert.equal(links.length, 1000);
            const m = median(links.map((l) => l.length));
            assert.ok(m < 0.06, `median link ${m.toFixed(3)} of a 0.96-wide disc`);
            assert.equal(await page.getAttribute("body", "data-links-on-hover"), "false");
            assert.equal(
              await page.textContent("#legend li.k-link"),
              tr ? "Bağlantı (kalın: daha çok mesaj)" : "Link (thicker: more messages)",
            );
            assert.equal(await page.isVisible("#legend li.k-link-hover"), false);
            await page.screenshot({ path: `${shot}.png` });
            // The map draws the same under either scheme (its colour scheme is dark): the
            // light view reads, the dark one (the same page, switched) points and chooses.
            if (scheme === "light") return;
            // The agent under the pointer: its links brighten.
            const { x, y } = await page.evaluate(() => {
              // deno-lint-ignore no-explicit-any
              const sigma = (globalThis as any).universeMap.sigma;
              const r = document.getElementById("map")!.getBoundingClientRect();
              let best = { x: 0, y: 0, d: Infinity };
              sigma.getGraph().forEachNode((_: string, a: { x: number; y: number }) => {
                const p = sigma.graphToViewport(a);
                const d = Math.hypot(p.x - r.width / 2, p.y - r.height / 2);
                if (d < best.d) best = { x: r.left + p.x, y: r.top + p.y, d };
              });
              return best;
            });
            await page.mouse.move(x, y);
            await page.waitForFunction(() => (document.body.dataset.hovered ?? "") !== "");
            const hovered = await page.getAttribute("body", "data-hovered");
            await page.waitForTimeout(200);
            const bright = (await drawnLinks(page)).filter((l) => l.colour === "#58a6ff");
            assert.equal(bright.length, 4, JSON.stringify(bright));
            for (const l of bright) assert.ok(l.a === hovered || l.b === hovered);
            await page.screenshot({ path: `${shot}-hover.png` });
            await page.mouse.move(2, viewport.height - 2);
            // Chosen: its four links stand out, its peers where the server put them.
            await page.evaluate(() => (location.hash = "agent-7.example"));
            await page.waitForSelector("body[data-selected='agent-7.example']");
            await page.waitForTimeout(500);
            assert.equal(await page.getAttribute("body", "data-highlighted"), "4");
            const drawnAt = await page.evaluate(() => {
              // deno-lint-ignore no-explicit-any
              const g = (globalThis as any).universeMap.sigma.getGraph();
              return Object.fromEntries(
                ["agent-7.example", ...g.neighbors("agent-7.example")].map((n: string) => [
                  n,
                  [g.getNodeAttribute(n, "x"), g.getNodeAttribute(n, "y")],
                ]),
              );
            });
            assert.deepEqual(drawnAt, {
              ...places.peers,
              "agent-7.example": [places.x, places.y],
            });
            await labelBoxes(page);
            await page.screenshot({ path: `${shot}-selected.png` });
          },
          { schemeInPlace: true },
        );
      });
    } finally {
      await u.stop();
    }
  },
});
