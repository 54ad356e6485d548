/**
 * The universe's pages in headless Chromium (playwright-core): every page in en and tr
 * loads without a console error or a CSP violation; the map draws a seeded directory's
 * agents and links, the `#<address>` panel opens, search finds an agent, and owner and
 * about text holding `<script>` and bidi characters shows as text. Screenshots are kept
 * under `tests/universe/artifacts/`.
 */
import assert from "node:assert/strict";
import { launch, T } from "../dashboard/_browser.ts";
import { seed, type SeedAgent, startUniverse } from "../universe/_harness.ts";

const ARTIFACTS = new URL("../universe/artifacts/", import.meta.url).pathname;

function directory(n: number): SeedAgent[] {
  const agents: SeedAgent[] = [];
  for (let i = 0; i < n; i++) {
    agents.push({
      address: `agent-${i}.example`,
      name: `Agent ${i}`,
      owner: `Owner ${i}`,
      about: `About ${i}`,
    });
  }
  for (let i = 0; i < n; i++) {
    agents[i]!.links = [1, 2, 5].map((d) => ({
      peer: `agent-${(i + d) % n}.example`,
      messages: (i * 7) % 40,
    }))
      .concat(
        [1, 2, 5].map((d) => ({
          peer: `agent-${(i - d + n) % n}.example`,
          messages: (i * 3) % 40,
        })),
      );
  }
  agents[0] = {
    ...agents[0]!,
    name: "Ada",
    owner: "<script>alert('owner')</script>",
    about: "about \u202eevil\u202c <img src=x onerror=alert(1)>",
    subs: [{ name: "chef", about: "cooks <b>well</b>" }],
  };
  return agents;
}

Deno.test({
  name:
    "pages in Chromium: every page in en and tr loads with no console error and no CSP violation",
  ...T,
  async fn() {
    const u = await startUniverse();
    await seed(u, directory(12));
    const browser = await launch();
    try {
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      for (
        const path of [
          "/",
          "/how-it-works",
          "/universe",
          "/tr/",
          "/tr/how-it-works",
          "/tr/universe",
        ]
      ) {
        const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
        const problems: string[] = [];
        page.on("console", (m) => {
          // Chromium's software WebGL notes are not the page's.
          if ((m.type() === "error" || m.type() === "warning") && !m.text().includes("GL Driver")) {
            problems.push(m.text());
          }
        });
        page.on("pageerror", (e) => problems.push(String(e)));
        await page.goto(`${u.url}${path}`);
        if (path.endsWith("universe") || path.endsWith("/")) {
          await page.waitForSelector("body[data-drawn='12']");
        }
        await page.waitForTimeout(100);
        assert.deepEqual(problems, [], `${path}: ${problems.join(" | ")}`);
        await page.screenshot({ path: `${ARTIFACTS}page${path.replace(/\//g, "_")}.png` });
        await page.close();
      }
    } finally {
      await browser.close();
      await u.stop();
    }
  },
});

Deno.test({
  name:
    "the map in Chromium: draws agents and links, opens #<address>, searches, shows hostile text as text",
  ...T,
  async fn() {
    const u = await startUniverse();
    await seed(u, directory(40));
    const browser = await launch();
    try {
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
      let dialogs = 0;
      page.on("dialog", (d) => {
        dialogs++;
        d.dismiss();
      });
      await page.goto(`${u.url}/universe#agent-0.example`);
      await page.waitForSelector("body[data-drawn='40']");
      assert.match(
        await page.textContent("#stats") ?? "",
        /^40 agents · 40 online · 120 links · [\d,]+ messages$/,
      );
      // The fragment that join returns opens the agent's panel.
      await page.waitForSelector("#panel h2");
      assert.equal(await page.textContent("#panel h2"), "Ada");
      const panel = await page.textContent("#panel") ?? "";
      assert.ok(panel.includes("Owner: <script>alert('owner')</script>"), panel);
      assert.ok(panel.includes("<img src=x onerror=alert(1)>"), panel);
      assert.ok(!panel.includes("\u202e"), "bidi controls are stripped");
      assert.ok(panel.includes("chef — cooks <b>well</b>"), panel);
      assert.equal(await page.locator("#panel script, #panel img, #panel b").count(), 0);
      await page.screenshot({ path: `${ARTIFACTS}map-panel.png` });
      // Search by name, then by address.
      await page.fill("#search", "Agent 17");
      await page.waitForSelector("#results li");
      await page.waitForFunction(() =>
        document.querySelector("#results li .addr")?.textContent === "agent-17.example"
      );
      assert.equal(await page.textContent("#results li .name"), "Agent 17");
      await page.click("#results li");
      await page.waitForFunction(() =>
        document.querySelector("#panel h2")?.textContent === "Agent 17"
      );
      assert.equal(new URL(page.url()).hash, "#agent-17.example");
      await page.fill("#search", "agent-3.");
      await page.waitForFunction(() =>
        document.querySelector("#results li")?.textContent?.includes("agent-3.example")
      );
      // The list view, for screen readers.
      await page.click("#list summary");
      await page.waitForFunction(() => document.querySelectorAll("#list-body li").length === 40);
      // On a phone.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${ARTIFACTS}map-phone.png`, fullPage: true });
      assert.equal(dialogs, 0);
    } finally {
      await browser.close();
      await u.stop();
    }
  },
});
