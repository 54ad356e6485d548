/**
 * What the dashboard's browser tests share: Debian's Chromium, the artefacts folder, and
 * waiting for a page to be drawn.
 *
 * @module
 */
import { type Browser, chromium, type Page } from "playwright-core";

/** Debian's Chromium, if installed. */
export const CHROMIUM: string | undefined = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
  .find((p) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  });

/** The test options every browser test takes. */
export const T = { ignore: CHROMIUM === undefined, sanitizeOps: false, sanitizeResources: false };

/** Where screenshots are kept (ignored by git). */
export const ARTIFACTS: string = new URL("./artifacts/", import.meta.url).pathname;

/** Headless Chromium. */
export async function launch(): Promise<Browser> {
  return await chromium.launch({ executablePath: CHROMIUM!, args: ["--no-sandbox"] });
}

/** Collects console errors, warnings and page errors (a CSP violation is one). */
export function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(String(e)));
  return problems;
}

/** Waits until the page's current view is drawn. */
export async function ready(page: Page): Promise<void> {
  await page.waitForSelector("main[data-ready='true']", { timeout: 15_000 });
}
