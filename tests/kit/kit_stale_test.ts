/**
 * The committed spine kit (`kit/spine/`) is what the spine source builds, and the
 * check says which file differs when the source changes: `deno task kit:check`.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;

async function check(root: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--allow-read",
      "--allow-write",
      "--allow-run",
      "--allow-env",
      `${root}kit/build_kit.ts`,
      "--check",
    ],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("the committed spine kit matches what the spine source builds", async () => {
  const r = await check(ROOT);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "The spine kit matches the spine source.\n");
});

Deno.test("kit:check fails on a planted change to the spine source and names the file", async () => {
  const copy = await Deno.makeTempDir({ prefix: "agent-kit-stale-" });
  try {
    for await (const entry of Deno.readDir(ROOT)) {
      if ([".git", "node_modules"].includes(entry.name) || entry.name.startsWith(".")) continue;
      const cp = await new Deno.Command("cp", {
        args: ["-r", `${ROOT}${entry.name}`, `${copy}/${entry.name}`],
      }).output();
      assert.equal(cp.code, 0);
    }
    await Deno.symlink(`${ROOT}node_modules`, `${copy}/node_modules`);
    const env = `${copy}/spine/env.ts`;
    const text = await Deno.readTextFile(env);
    await Deno.writeTextFile(
      env,
      text.replace('SPINE_VERSION = "0.1.0"', 'SPINE_VERSION = "0.1.1"'),
    );
    const r = await check(`${copy}/`);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      [
        "kit/spine/worker.js differs from what the spine source builds",
        "kit/spine/package.template.json differs from what the spine source builds",
        "kit/spine/VERSION differs from what the spine source builds",
        "kit/spine/README.md differs from what the spine source builds",
        "The spine kit is stale: run `deno task kit:build` and commit kit/spine/.",
        "",
      ].join("\n"),
    );
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
});
