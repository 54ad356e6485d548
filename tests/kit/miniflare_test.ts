import assert from "node:assert/strict";
import { tempDir } from "../_temp_dir.ts";

const T = { sanitizeOps: false, sanitizeResources: false };

/** Starts `_miniflare_process.ts` with `tmp` as its TMPDIR; resolves with its URL once ready. */
async function holder(tmp: string, args: string[] = []) {
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
      ...args,
    ],
    env: { TMPDIR: tmp },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  const until = async (word: string) => {
    while (!out.includes(word)) {
      const { done, value } = await lines.read();
      if (done) break;
      out += value;
    }
    assert.ok(out.includes(word), out);
  };
  await until("\n");
  const url = /^ready (\S+)$/m.exec(out)?.[1];
  assert.ok(url, out);
  return { child, url, until, lines };
}

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name);

Deno.test({
  name: "startMiniflare() keeps Miniflare's folder in one of its own; stopMiniflare() removes it",
  ...T,
  async fn() {
    await using tmp = await tempDir("miniflare-own-");
    const { child, url, until, lines } = await holder(tmp.path, ["--stop-on-input"]);
    try {
      assert.equal(await (await fetch(url)).text(), "ok");
      const added = names(tmp.path);
      assert.equal(added.length, 1, added.join(", "));
      assert.match(added[0]!, /^agent-miniflare-/);
      const inside = names(`${tmp.path}/${added[0]}`);
      assert.ok(inside.some((n) => n.startsWith("miniflare-")), inside.join(", "));
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode("stop\n"));
      await writer.close();
      await until("stopped");
      assert.deepEqual(names(tmp.path), []);
    } finally {
      try {
        child.kill("SIGKILL");
      } catch { /* ended */ }
      await child.status;
      await lines.cancel();
      await child.stderr.cancel();
    }
  },
});

Deno.test({
  name: "a process holding a Miniflare leaves no folder when SIGTERM or SIGINT ends it",
  ...T,
  async fn() {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      await using tmp = await tempDir("miniflare-signal-");
      const { child, lines } = await holder(tmp.path);
      assert.equal([...Deno.readDirSync(tmp.path)].length, 1);
      child.kill(signal);
      await child.status;
      await lines.cancel();
      await child.stderr.cancel();
      assert.deepEqual([...Deno.readDirSync(tmp.path)].map((e) => e.name), [], signal);
    }
  },
});
