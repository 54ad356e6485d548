import assert from "node:assert/strict";
import { startMiniflare, stopMiniflare } from "@agent/kit";
import { tempDir } from "../_temp_dir.ts";

const T = { sanitizeOps: false, sanitizeResources: false };
const SCRIPT = "export default { fetch() { return new Response('ok'); } };";

/** The names in the folder `os.tmpdir()` and Deno use. */
function tmpNames(): Set<string> {
  const dir = Deno.env.get("TMPDIR") || "/tmp";
  return new Set([...Deno.readDirSync(dir)].map((e) => e.name));
}

Deno.test({
  name: "startMiniflare() keeps Miniflare's folder in one of its own; stopMiniflare() removes it",
  ...T,
  async fn() {
    Deno.env.set("CLOUDFLARE_CF_FETCH_ENABLED", "false");
    // A temp folder of this test's own: other test files running beside it make and
    // remove folders in the shared one while this one compares its listings.
    using own = tempDir("miniflare-tmp-");
    const shared = Deno.env.get("TMPDIR");
    Deno.env.set("TMPDIR", own.path);
    const tmpdir = Deno.env.get("TMPDIR");
    const before = tmpNames();
    const mf = startMiniflare({ modules: true, script: SCRIPT, compatibilityDate: "2026-04-20" });
    try {
      assert.equal(Deno.env.get("TMPDIR"), tmpdir, "TMPDIR is restored");
      const url = await mf.ready;
      assert.equal(await (await fetch(url)).text(), "ok");
      const added = [...tmpNames()].filter((n) => !before.has(n));
      assert.equal(added.length, 1, added.join(", "));
      assert.match(added[0]!, /^agent-miniflare-/);
      const base = Deno.env.get("TMPDIR") || "/tmp";
      const inside = [...Deno.readDirSync(`${base}/${added[0]}`)].map((e) => e.name);
      assert.ok(inside.some((n) => n.startsWith("miniflare-")), inside.join(", "));
    } finally {
      await stopMiniflare(mf);
    }
    assert.deepEqual([...tmpNames()].filter((n) => !before.has(n)), []);
    if (shared === undefined) Deno.env.delete("TMPDIR");
    else Deno.env.set("TMPDIR", shared);
  },
});

Deno.test({
  name: "a process holding a Miniflare leaves no folder when SIGTERM or SIGINT ends it",
  ...T,
  async fn() {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      await using tmp = await tempDir("miniflare-signal-");
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--quiet",
          "--no-prompt",
          "--allow-read",
          "--allow-write",
          "--allow-env",
          "--allow-net",
          "--allow-run",
          "--allow-sys",
          new URL("./_miniflare_process.ts", import.meta.url).pathname,
        ],
        env: { TMPDIR: tmp.path },
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let out = "";
      while (!out.includes("ready\n")) {
        const { done, value } = await lines.read();
        if (done) break;
        out += value;
      }
      assert.ok(out.includes("ready"), out);
      assert.equal([...Deno.readDirSync(tmp.path)].length, 1);
      child.kill(signal);
      await child.status;
      await lines.cancel();
      await child.stderr.cancel();
      assert.deepEqual([...Deno.readDirSync(tmp.path)].map((e) => e.name), [], signal);
    }
  },
});
