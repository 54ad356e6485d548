/**
 * A process that starts a Worker with `startMiniflare()`, prints `ready` and waits to be
 * signalled, as `spine:dev` does (for `miniflare_test.ts`).
 *
 * @module
 */
import { startMiniflare } from "@agent/kit";

Deno.env.set("CLOUDFLARE_CF_FETCH_ENABLED", "false");
const mf = startMiniflare({
  modules: true,
  script: "export default { fetch() { return new Response('ok'); } };",
  compatibilityDate: "2026-04-20",
  cf: false,
});
await mf.ready;
console.log("ready");
await new Promise(() => {});
