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

/**
 * Makes `theme` the dashboard's theme as a person's choice leaves it: stored where the
 * page reads it, then the page loaded again, so the page and its theme menu agree (set
 * without a reload, the menu drawn next names a theme the page does not show).
 */
export async function useTheme(page: Page, theme: "auto" | "light" | "dark"): Promise<void> {
  await page.evaluate((t) => localStorage.setItem("theme", t), theme);
  await page.reload();
  await ready(page);
  await assertOneTheme(page);
}

/** Throws unless the page shows the theme its menu names (for a screenshot's sake). */
export async function assertOneTheme(page: Page): Promise<void> {
  const { shown, menu } = await page.evaluate(() => ({
    shown: document.documentElement.dataset.theme ?? "auto",
    menu: (document.getElementById("theme") as HTMLSelectElement | null)?.value,
  }));
  if (menu !== undefined && shown !== menu) {
    throw new Error(`The theme menu says '${menu}' over a page drawn '${shown}'.`);
  }
}
