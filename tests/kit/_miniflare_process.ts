/**
 * A process that starts a Worker with `startMiniflare()`, prints `ready <url>` and waits, as
 * `spine:dev` does (for `miniflare_test.ts`). With `--stop-on-input` it calls
 * `stopMiniflare()` when a line arrives on stdin and prints `stopped`.
 *
 * The tests run it as a process of its own with a TMPDIR of its own: the environment is
 * one per process, shared by every test file `deno test --parallel` runs in it, so a test
 * that set TMPDIR in place sent the temp folders of the files beside it into its own.
 *
 * @module
 */
import { startMiniflare, stopMiniflare } from "@agent/kit";

Deno.env.set("CLOUDFLARE_CF_FETCH_ENABLED", "false");
const tmpdir = Deno.env.get("TMPDIR");
const mf = startMiniflare({
  modules: true,
  script: "export default { fetch() { return new Response('ok'); } };",
  compatibilityDate: "2026-04-20",
  cf: false,
});
if (Deno.env.get("TMPDIR") !== tmpdir) throw new Error("startMiniflare() left TMPDIR changed");
const url = await mf.ready;
console.log(`ready ${url}`);
if (Deno.args.includes("--stop-on-input")) {
  for await (const _ of Deno.stdin.readable) break;
  await stopMiniflare(mf);
  console.log("stopped");
} else {
  await new Promise(() => {});
}
