/**
 * The universe on one local workerd:
 * - `GET /api/universe` with 10,000 agents and 50,000 reported links (p50 goal: under
 *   100 ms), answered from the stored snapshot (gzip in R2, built by the directory's alarm);
 * - accepted signed reports per second, each one a card fetch, a signature check and a
 *   directory transaction (goal: at least 300/s);
 * - the map page with 10,000 agents in headless Chromium, from navigation to the first
 *   complete drawing (goal: under 1.5 s).
 *
 * Run: `deno task bench universe` (or this file directly).
 *
 * @module
 */
import { percentile } from "./_stats.ts";
import { chromium } from "playwright-core";
import { seed, type SeedAgent, startAgent, startUniverse } from "../universe/_harness.ts";

const AGENTS = Number(Deno.env.get("BENCH_AGENTS") ?? "10000");
// Each agent reports 5 links: the two next and the two previous agents (mutual) and
// the third next (one-sided). 10,000 agents: 50,000 reported links, 20,000 visible.
const LINKS_EACH = 5;
const REPORTERS = 50;
const REPORTS_EACH = 25;

const universe = await startUniverse();
try {
  const agents: SeedAgent[] = [];
  for (let i = 0; i < AGENTS; i++) {
    const links = [1, 2, -1, -2, 3].map((d) => ({
      peer: `agent-${(i + d + AGENTS) % AGENTS}.example`,
      messages: (i * Math.abs(d)) % 50,
    }));
    agents.push({ address: `agent-${i}.example`, name: `Agent ${i}`, owner: `Owner ${i}`, links });
  }
  const seeding = performance.now();
  await seed(universe, agents);
  console.log(
    `seeded: ${AGENTS} agents, ${AGENTS * LINKS_EACH} reported links in ${
      ((performance.now() - seeding) / 1000).toFixed(1)
    } s`,
  );

  // 1. The snapshot.
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 51; i++) {
    const start = performance.now();
    const res = await fetch(`${universe.url}/api/universe`);
    const text = await res.text();
    times.push(performance.now() - start);
    bytes = text.length;
  }
  const first = times.shift()!;
  console.log(
    `snapshot: ${(bytes / 1024 / 1024).toFixed(1)} MiB; first (built) ${
      first.toFixed(0)
    } ms; cached p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${
      percentile(times, 99).toFixed(1)
    } ms (goal p50 < 100 ms)`,
  );

  // 3. The map page (before the report load changes the directory).
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox"],
  });
  const draws: number[] = [];
  try {
    for (let i = 0; i < 5; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${universe.url}/universe`);
      // The map draws cells above 3,000 agents: its first drawing, whatever the layer.
      await page.waitForSelector("body[data-first-draw]", { timeout: 30_000 });
      draws.push(Number(await page.getAttribute("body", "data-first-draw")));
      await page.close();
    }
  } finally {
    await browser.close();
  }
  console.log(
    `map page: first complete drawing p50 ${percentile(draws, 50).toFixed(0)} ms, max ${
      Math.max(...draws).toFixed(0)
    } ms over ${draws.length} loads (goal < 1500 ms)`,
  );

  // 2. Accepted signed reports per second.
  const reporters = await Promise.all(
    Array.from({ length: REPORTERS }, (_, i) => startAgent(`Reporter ${i}`)),
  );
  try {
    for (const r of reporters) {
      const joined = await r.post(universe, {});
      if (joined.status !== 200) throw new Error(`join failed: ${JSON.stringify(joined.body)}`);
    }
    const peers = reporters.map((r) => r.address);
    let accepted = 0;
    const start = performance.now();
    await Promise.all(reporters.map(async (r, i) => {
      for (let k = 0; k < REPORTS_EACH; k++) {
        const res = await r.post(universe, {
          kind: "report",
          links: peers.filter((_, j) => j !== i).slice(0, 10).map((peer) => ({
            peer,
            messages: k,
          })),
        });
        if (res.status === 200) accepted++;
      }
    }));
    const seconds = (performance.now() - start) / 1000;
    console.log(
      `reports: ${accepted} of ${REPORTERS * REPORTS_EACH} accepted in ${seconds.toFixed(2)} s: ${
        (accepted / seconds).toFixed(0)
      }/s (goal >= 300/s)`,
    );
  } finally {
    for (const r of reporters) await r.stop();
  }
} finally {
  await universe.stop();
}
