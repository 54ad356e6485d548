/**
 * The universe's map at scale, in headless Chromium (software WebGL) on one local
 * workerd, with `BENCH_MAP_AGENTS` agents (default 100,000; each linked to its two
 * neighbours), seeded through the directory's own `apply()` in batches:
 * - first drawing: from navigation to the first drawn frame (the cells of the overview),
 *   goal under 1.5 s;
 * - frame time while panning, zoomed out (cells) and zoomed in (agents, links, labels),
 *   goal under 33 ms at p95, and the page's own work per frame (headless Chromium draws
 *   WebGL in software, SwiftShader, so the frame time there is mostly rasterising);
 * - the map endpoints' answer times (overview, a zoomed-in area, a one-letter search).
 *
 * Run: `deno task bench map` (or this file directly, with `--allow-all`).
 *
 * @module
 */
import { chromium, type Page } from "playwright-core";
import { percentile } from "./_stats.ts";
import { startBulkUniverse } from "../universe/_bulk.ts";

const AGENTS = Number(Deno.env.get("BENCH_MAP_AGENTS") ?? "100000");

async function timed(url: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await (await fetch(url)).arrayBuffer();
    times.push(performance.now() - start);
  }
  return times;
}

/**
 * Frame intervals (ms) while the mouse drags the map around for about two seconds, and
 * the page's own work per frame (every animation-frame callback: sigma's render and the
 * label placement), counted by the wrapper {@linkcode WRAP_RAF} installs.
 */
async function panFrames(page: Page): Promise<{ frames: number[]; work: number[] }> {
  const box = (await page.locator("#map").boundingBox())!;
  await page.evaluate(() => {
    const w = globalThis as unknown as { frames_: number[]; stop_: boolean };
    w.frames_ = [];
    w.stop_ = false;
    (globalThis as unknown as { work_: number[] }).work_ = [];
    let last = performance.now();
    const tick = (now: number) => {
      w.frames_.push(now - last);
      last = now;
      if (!w.stop_) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  for (let i = 0; i <= 120; i++) {
    const a = (i / 120) * Math.PI * 2;
    await page.mouse.move(cx + Math.cos(a) * 150, cy + Math.sin(a) * 100);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  return await page.evaluate(() => {
    const w = globalThis as unknown as { frames_: number[]; stop_: boolean; work_: number[] };
    w.stop_ = true;
    return { frames: w.frames_.slice(2), work: w.work_.filter((t) => t > 0) };
  });
}

/** Sums the time of each frame's animation-frame callbacks into `work_`. */
const WRAP_RAF = `(() => {
  const raf = window.requestAnimationFrame.bind(window);
  let frame = -1, sum = 0;
  window.work_ = [];
  window.requestAnimationFrame = (cb) => raf((now) => {
    if (now !== frame) { if (frame >= 0) window.work_.push(sum); frame = now; sum = 0; }
    const start = performance.now();
    try { cb(now); } finally { sum += performance.now() - start; }
  });
})();`;

function frames(label: string, { frames: values, work }: { frames: number[]; work: number[] }) {
  return `${label}: frame p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${
    percentile(values, 95).toFixed(1)
  } ms, max ${
    Math.max(...values).toFixed(0)
  } ms over ${values.length} frames (goal p95 < 33 ms); ` +
    `the page's work per drawn frame p50 ${percentile(work, 50).toFixed(1)} ms, p95 ${
      percentile(work, 95).toFixed(1)
    } ms`;
}

const u = await startBulkUniverse();
try {
  const seeding = performance.now();
  await u.seed(AGENTS, [1]);
  console.log(
    `seeded: ${AGENTS} agents and ${AGENTS} mutual links through apply() in ${
      ((performance.now() - seeding) / 1000).toFixed(1)
    } s`,
  );
  const overview = await timed(`${u.url}/api/map/overview`, 11);
  const area = await timed(`${u.url}/api/map/area?x0=0.45&y0=0.45&x1=0.5&y1=0.5`, 11);
  const search = await timed(`${u.url}/api/map/search?q=a`, 11);
  const one = await (await fetch(`${u.url}/api/map/area?x0=0.45&y0=0.45&x1=0.5&y1=0.5`))
    .json() as { agents: unknown[] };
  console.log(
    `endpoints: overview p50 ${
      percentile(overview, 50).toFixed(0)
    } ms; area of ${one.agents.length} agents p50 ${
      percentile(area, 50).toFixed(0)
    } ms; one-letter search p50 ${percentile(search, 50).toFixed(0)} ms`,
  );
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"],
  });
  try {
    const draws: number[] = [];
    for (let i = 0; i < 5; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${u.url}/universe`);
      await page.waitForSelector("body[data-first-draw]", { timeout: 30_000 });
      draws.push(Number(await page.getAttribute("body", "data-first-draw")));
      await page.close();
    }
    console.log(
      `first drawing (cells of ${AGENTS} agents): p50 ${percentile(draws, 50).toFixed(0)} ms, max ${
        Math.max(...draws).toFixed(0)
      } ms over ${draws.length} loads (goal < 1500 ms)`,
    );
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(WRAP_RAF);
    await page.goto(`${u.url}/universe`);
    await page.waitForSelector("body[data-layer='cells']");
    console.log(frames("panning zoomed out (cells)", await panFrames(page)));
    await page.evaluate(() => (location.hash = "agent-4242.example"));
    await page.waitForSelector("body[data-layer='area'][data-selected='agent-4242.example']", {
      timeout: 30_000,
    });
    await page.waitForTimeout(1000);
    // Unselected, so that every agent and link is drawn in its own colour.
    await page.click("#zoom-out");
    await page.click("#zoom-in");
    await page.waitForTimeout(1000);
    const drawn = await page.getAttribute("body", "data-drawn");
    const labels = await page.getAttribute("body", "data-labels");
    console.log(
      frames(`panning zoomed in (${drawn} agents, ${labels} labels)`, await panFrames(page)),
    );
    await page.close();
  } finally {
    await browser.close();
  }
} finally {
  await u.stop();
}
