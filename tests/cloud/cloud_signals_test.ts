/**
 * `agent cloud run` and SIGTERM (issue 27 R1): its signal handlers go in before it serves
 * `/health`, so a SIGTERM at any moment of a start ends it cleanly. The suite runs 12
 * starts to stay well under a minute on 2 cores; `deno task bench cloud` runs 50.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { cloudHome, cloudSpine, pushHome } from "./_cloud.ts";
import { sigtermLine, sigtermStarts } from "./_sigterm_starts.ts";

const STARTS = Number(Deno.env.get("SIGTERM_STARTS") ?? "12");

Deno.test({
  name: "agent cloud run: SIGTERM at random moments of its start always exits 0 and leaves no lock",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { spine, brainPort } = await cloudSpine();
    try {
      const home = await cloudHome(spine);
      await pushHome(home);
      const figures = await sigtermStarts(spine.url, brainPort, STARTS);
      console.log(sigtermLine(figures));
      for (const start of figures.starts) {
        assert.deepEqual(
          [start.code, start.leftovers],
          [0, []],
          `${start.when} +${start.delayMs} ms: ${start.stderr}`,
        );
      }
      assert.ok(figures.starts.some((s) => s.when === "early"));
      assert.ok(figures.starts.some((s) => s.when === "late"));
    } finally {
      await spine.stop();
      await cleanup();
    }
  },
});
