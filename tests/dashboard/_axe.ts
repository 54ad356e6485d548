/**
 * axe-core on a dashboard page: the serious and critical violations, as
 * `<rule>: <targets>` lines (none is the goal). The page's context must bypass the CSP
 * (`bypassCSP: true`), which would refuse the injected script.
 *
 * @module
 */
import type { Page } from "playwright-core";

const AXE = new URL("../../node_modules/axe-core/axe.min.js", import.meta.url).pathname;

/**
 * The serious and critical violations axe-core finds on `page` now. The script is
 * injected once per document (its ~0.5 MB cost ~0.5 CPU-second of Chromium to take in
 * each time); a page that moves between views by its fragment keeps it.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // deno-lint-ignore no-explicit-any
  if (!await page.evaluate(() => "axe" in (globalThis as any))) {
    await page.addScriptTag({ content: await Deno.readTextFile(AXE) });
  }
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document);
    // deno-lint-ignore no-explicit-any
    return result.violations.filter((v: any) => v.impact === "serious" || v.impact === "critical")
      // deno-lint-ignore no-explicit-any
      .map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(" ")).join(", ")}`);
  });
}
