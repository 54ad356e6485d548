/**
 * The universe's map at scale in headless Chromium (issue 39): at 100,000 agents the
 * first view's groups carry their counts, the legend gives agents per dot and the zoom
 * level, and the agents are a few presses (or one click on a group) away (U03); at 500
 * agents linked agents sit near each other, so links are short, not chords across the
 * disc (U05). Desktop and phone, light and dark, en and tr; screenshots go to
 * `tests/universe/artifacts/`.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startBulkUniverse } from "../universe/_bulk.ts";
import { ARTIFACTS, DESKTOP, labelBoxes, open, PHONE, T, withBrowser } from "./_universe_map.ts";

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
