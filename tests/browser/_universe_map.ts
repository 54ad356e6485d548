/**
 * What the map's browser tests share: Chromium with WebGL, the universe's artefacts
 * folder, the two screen sizes, a seeded ring of agents, a page whose problems are
 * collected, and checks of what the map drew (label boxes, an agent's place).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { SeedAgent } from "../universe/_harness.ts";
import { launch, T, type TestBrowser } from "../dashboard/_browser.ts";

export { T, type TestBrowser };

/** Where the map's screenshots go (ignored by git). */
export const ARTIFACTS: string = new URL("../universe/artifacts/", import.meta.url).pathname;
/** A desktop screen. */
export const DESKTOP = { width: 1280, height: 800 };
/** A phone. */
export const PHONE = { width: 390, height: 844 };

/**
 * `n` agents `agent-<i>.example`, each linked to the agents 1 and 3 places before and
 * after it (a ring), agent 1 with Turkish letters and agent 2 with a name too long to fit.
 */
export function agents(n: number): SeedAgent[] {
  const list: SeedAgent[] = [];
  for (let i = 0; i < n; i++) {
    list.push({
      address: `agent-${i}.example`,
      name: `Agent ${i}`,
      owner: `Owner ${i}`,
      about: `About ${i}`,
      links: n < 2 ? [] : [1, 3].flatMap((d) => [
        { peer: `agent-${(i + d) % n}.example`, messages: 1 + (i % 5) },
        { peer: `agent-${(i - d + n) % n}.example`, messages: 1 + ((i - d + n) % n % 5) },
      ]),
    });
  }
  if (n > 1) {
    list[1] = {
      ...list[1]!,
      name: "Özlem Işık",
      owner: "Şule",
      about: "A very long line about this agent that goes on and on",
    };
  }
  if (n > 2) {
    list[2] = { ...list[2]!, name: "A name far too long to fit on any label of the map at all" };
  }
  return list;
}

/**
 * Runs `fn` with the file's headless Chromium (it draws WebGL in software, SwiftShader);
 * the pages `fn` opened are closed after.
 */
export async function withBrowser(fn: (browser: TestBrowser) => Promise<void>): Promise<void> {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  const browser = await launch();
  try {
    await fn(browser);
  } finally {
    await browser.close();
  }
}

/**
 * A page whose errors (not Chromium's own GL driver notes) are collected. With
 * `reducedMotion` its system asks for less motion, so the map jumps where it would glide:
 * a glide draws ~12 frames of WebGL in software, ~0.5 CPU-second a zoom here.
 */
export async function open(
  browser: TestBrowser,
  url: string,
  viewport = DESKTOP,
  colorScheme: "light" | "dark" = "dark",
  reducedMotion: "reduce" | "no-preference" = "no-preference",
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport, colorScheme, reducedMotion });
  const problems: string[] = [];
  page.on("console", (m) => {
    if ((m.type() === "error" || m.type() === "warning") && !m.text().includes("GL Driver")) {
      problems.push(m.text());
    }
  });
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.goto(url);
  return { page, problems };
}

/** Every placed label's box: none overlaps another, all inside the map. */
export async function labelBoxes(page: Page): Promise<number> {
  const { boxes, map } = await page.evaluate(() => ({
    boxes: [...document.querySelectorAll("#labels .label")].map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.left, y: r.top, w: r.width, h: r.height, text: e.textContent ?? "" };
    }),
    map: (() => {
      const r = document.getElementById("map")!.getBoundingClientRect();
      return { x: r.left, y: r.top, w: r.width, h: r.height };
    })(),
  }));
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i]!;
    assert.ok(a.w > 0 && a.h > 0, a.text);
    assert.ok(
      a.x >= map.x - 0.5 && a.y >= map.y - 0.5 && a.x + a.w <= map.x + map.w + 0.5 &&
        a.y + a.h <= map.y + map.h + 0.5,
      `${a.text} leaves the map`,
    );
    for (let j = i + 1; j < boxes.length; j++) {
      const b = boxes[j]!;
      const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
      assert.ok(!overlap, `labels overlap: ${a.text} / ${b.text}`);
    }
  }
  return boxes.length;
}

/** The viewport position of an agent on the map (through the page's renderer). */
export async function agentAt(page: Page, address: string): Promise<{ x: number; y: number }> {
  return await page.evaluate((address) => {
    // deno-lint-ignore no-explicit-any
    const sigma = (globalThis as any).universeMap.sigma;
    const p = sigma.graphToViewport(sigma.getGraph().getNodeAttributes(address));
    const r = document.getElementById("map")!.getBoundingClientRect();
    return { x: r.left + p.x, y: r.top + p.y };
  }, address);
}

/** Throws unless `box` lies inside the viewport `v`. */
export function inView(
  box: { x: number; y: number; width: number; height: number } | null,
  v = PHONE,
) {
  assert.ok(box, "the element is shown");
  assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= v.width + 0.5, JSON.stringify(box));
  assert.ok(box.y + box.height <= v.height + 0.5, JSON.stringify(box));
}

/** One view of {@linkcode eachView}: the page, and how its screenshots are named. */
export interface MapPageView {
  page: Page;
  /** `desktop` or `phone`. */
  tag: string;
  viewport: { width: number; height: number };
  scheme: "dark" | "light";
  /** The Turkish page. */
  tr: boolean;
  /** A screenshot's path without `.png`: `<prefix>-<tag>-<scheme>[-tr]`. */
  shot: string;
}

/** Options for {@linkcode eachView}. */
export interface EachViewOptions {
  /**
   * `fn`'s light view leaves the page as it was drawn (it only reads and takes
   * screenshots), so the dark view switches the colour scheme on the same page instead
   * of loading it again: a load of the 100,000-agent map costs Chromium several
   * CPU-seconds, and the page draws the same under either scheme (its `color-scheme` is
   * dark), which the dark view's checks then prove after a live switch. @default false
   */
  schemeInPlace?: boolean;
  /** The pages' systems ask for less motion (see {@linkcode open}). @default false */
  reducedMotion?: boolean;
}

/**
 * Runs `fn` on `/universe` and `/tr/universe` of `url`, on a desktop and a phone, light
 * and dark; each page's problems must be none, and it is closed after.
 */
export async function eachView(
  browser: TestBrowser,
  url: string,
  prefix: string,
  fn: (view: MapPageView) => Promise<void>,
  options: EachViewOptions = {},
): Promise<void> {
  for (const [viewport, tag] of [[DESKTOP, "desktop"], [PHONE, "phone"]] as const) {
    for (const path of ["/universe", "/tr/universe"]) {
      const tr = path.startsWith("/tr");
      let opened: { page: Page; problems: string[] } | undefined;
      for (const scheme of ["light", "dark"] as const) {
        if (opened !== undefined && options.schemeInPlace) {
          await opened.page.emulateMedia({ colorScheme: scheme });
        } else {
          const motion = options.reducedMotion ? "reduce" : "no-preference";
          opened = await open(browser, `${url}${path}`, viewport, scheme, motion);
        }
        const { page, problems } = opened;
        const shot = `${ARTIFACTS}${prefix}-${tag}-${scheme}${tr ? "-tr" : ""}`;
        await fn({ page, tag, viewport, scheme, tr, shot });
        assert.deepEqual(problems, [], `${path}, ${tag}, ${scheme}`);
        if (!options.schemeInPlace || scheme === "dark") {
          await page.close();
          opened = undefined;
        }
      }
    }
  }
}
