/**
 * The universe's map at scale in headless Chromium (issue 39): at 100,000 agents the
 * first view's groups carry their counts, the legend gives agents per dot and the zoom
 * level, and the agents are a few presses (or one click on a group) away (U03); at 500
 * agents the links, long chords between places hashed from addresses, are drawn only
 * for the agent pointed at or chosen, and the legend says so (U05). Desktop and phone, light and dark, en and tr; screenshots go to
 * `tests/universe/artifacts/`.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startBulkUniverse } from "../universe/_bulk.ts";
import { seed, startUniverse } from "../universe/_harness.ts";
import {
  agents,
  ARTIFACTS,
  DESKTOP,
  labelBoxes,
  open,
  PHONE,
  T,
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
 * press the map has 4 s to settle (the zoom's animation, the area's request).
 */
async function pressesToAgents(page: Page): Promise<number> {
  for (let presses = 1; presses <= 12; presses++) {
    await page.click("#zoom-in");
    try {
      await page.waitForSelector("body[data-layer='area']", { timeout: 4_000 });
      return presses;
    } catch {
      // Still groups: press again.
    }
  }
  return Infinity;
}

Deno.test({
  name:
    "map in Chromium, 100,000 agents: groups labelled with counts, a scale, the zoom level in the legend, agents in a few presses (U03)",
  ...T,
  async fn() {
    const u = await startBulkUniverse();
    try {
      await u.seed(100_000, [1], 5_000);
      await withBrowser(async (browser) => {
        for (const [viewport, tag] of [[DESKTOP, "desktop"], [PHONE, "phone"]] as const) {
          for (const scheme of ["dark", "light"] as const) {
            for (const path of ["/universe", "/tr/universe"]) {
              const tr = path.startsWith("/tr");
              const { page, problems } = await open(browser, `${u.url}${path}`, viewport, scheme);
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
              const shot = `${ARTIFACTS}map-100k-${tag}-${scheme}${tr ? "-tr" : ""}`;
              await page.screenshot({ path: `${shot}.png` });
              if (scheme === "dark") {
                // From the whole universe to its agents: at most three presses of +.
                const presses = await pressesToAgents(page);
                assert.ok(presses <= 3, `${presses} presses of + to reach the agents`);
                await page.waitForTimeout(300);
                const drawn = Number(await page.getAttribute("body", "data-drawn"));
                assert.ok(drawn > 20 && drawn <= 5000, `${drawn} agents drawn`);
                assert.match(
                  await page.textContent("#zoom-level") ?? "",
                  tr
                    ? /^Yakınlık ×[\d,]+: her nokta bir ajan$/
                    : /^Zoom ×[\d.]+: each dot is one agent$/,
                );
                assert.equal(await page.isVisible("#legend-cell"), false);
                await page.screenshot({ path: `${shot}-zoomed.png` });
                // Back out; one click on the fullest group opens its agents.
                await page.click("#zoom-fit");
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
              assert.deepEqual(problems, []);
              await page.close();
            }
          }
        }
      });
    } finally {
      await u.stop();
    }
  },
});

/** The links the renderer draws now, as `a|b`. */
async function drawnLinks(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    // deno-lint-ignore no-explicit-any
    const sigma = (globalThis as any).universeMap.sigma;
    const g = sigma.getGraph();
    return g.edges().filter((e: string) => !sigma.getEdgeDisplayData(e)?.hidden)
      .map((e: string) => g.extremities(e).join("|"));
  });
}

Deno.test({
  name:
    "map in Chromium, 500 agents: links only for the agent pointed at or chosen, the legend says so (U05)",
  ...T,
  async fn() {
    const u = await startUniverse();
    try {
      await seed(u, agents(500));
      await withBrowser(async (browser) => {
        for (const [viewport, tag] of [[DESKTOP, "desktop"], [PHONE, "phone"]] as const) {
          for (const scheme of ["dark", "light"] as const) {
            for (const path of ["/universe", "/tr/universe"]) {
              const tr = path.startsWith("/tr");
              const { page, problems } = await open(browser, `${u.url}${path}`, viewport, scheme);
              await page.waitForSelector("body[data-drawn='500'][data-labels]");
              await page.waitForTimeout(300);
              // 1,000 links among 500 agents: none drawn until an agent is pointed at.
              assert.deepEqual(await drawnLinks(page), []);
              assert.equal(await page.isVisible("#legend li.k-link"), false);
              assert.equal(
                await page.textContent("#legend li.k-link-hover"),
                tr
                  ? "Bağlantılar: bir ajanın üzerine gelin ya da birini seçin (kalın: daha çok mesaj)"
                  : "Links: point at an agent or choose one (thicker: more messages)",
              );
              assert.ok(await page.isVisible("#legend li.k-link-hover"));
              const shot = `${ARTIFACTS}map-500-links-${tag}-${scheme}${tr ? "-tr" : ""}`;
              await page.screenshot({ path: `${shot}.png` });
              // Pointing at the agent nearest the map's middle draws its four links, only those.
              const { address, x, y } = await page.evaluate(() => {
                // deno-lint-ignore no-explicit-any
                const sigma = (globalThis as any).universeMap.sigma;
                const r = document.getElementById("map")!.getBoundingClientRect();
                let best = { address: "", x: 0, y: 0, d: Infinity };
                sigma.getGraph().forEachNode((node: string, a: { x: number; y: number }) => {
                  const p = sigma.graphToViewport(a);
                  const d = Math.hypot(p.x - r.width / 2, p.y - r.height / 2);
                  if (d < best.d) best = { address: node, x: r.left + p.x, y: r.top + p.y, d };
                });
                return best;
              });
              await page.mouse.move(x, y);
              // Where agents crowd, the one under the pointer may be a neighbour of it.
              await page.waitForFunction(() => (document.body.dataset.hovered ?? "") !== "");
              const hovered = await page.getAttribute("body", "data-hovered");
              assert.ok(hovered === address || hovered?.startsWith("agent-"), String(hovered));
              await page.waitForTimeout(200);
              const shown = await drawnLinks(page);
              assert.equal(shown.length, 4, shown.join());
              for (const link of shown) assert.ok(link.split("|").includes(hovered!), link);
              await page.screenshot({ path: `${shot}-hover.png` });
              await page.mouse.move(2, viewport.height - 2);
              await page.waitForSelector("body[data-hovered='']", { state: "attached" });
              assert.deepEqual(await drawnLinks(page), []);
              await page.evaluate(() => (location.hash = "agent-7.example"));
              await page.waitForSelector("body[data-selected='agent-7.example']");
              await page.waitForTimeout(500);
              // Chosen, its four links show (and stay), the rest stay hidden.
              const chosen = await drawnLinks(page);
              assert.equal(chosen.length, 4, chosen.join());
              for (const link of chosen) assert.match(link, /(^|\|)agent-7\.example($|\|)/);
              await labelBoxes(page);
              await page.screenshot({ path: `${shot}-selected.png` });
              assert.deepEqual(problems, []);
              await page.close();
            }
          }
        }
      });
    } finally {
      await u.stop();
    }
  },
});
