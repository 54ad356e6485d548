/**
 * The committed spine kit (`kit/spine/`) and the modules that ship it and the universe
 * (`kit/_spine_kit.ts`, `kit/_universe_kit.ts`) are what the source builds, and the
 * check says which file differs when the source changes: `deno task kit:check`.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;
const STALE =
  "The kit is stale: run `deno task kit:build` and commit kit/spine/, kit/_*_kit.ts and universe/_map_js.ts.";

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
  assert.equal(r.stdout, "The kit matches the spine and universe source.\n");
});

/** A copy of the repository (without .git; node_modules linked) to plant changes in. */
async function copyOfRepository(): Promise<string> {
  const copy = await Deno.makeTempDir({ prefix: "agent-kit-stale-" });
  for await (const entry of Deno.readDir(ROOT)) {
    if ([".git", "node_modules"].includes(entry.name)) continue;
    if (entry.name.startsWith(".") && entry.name !== ".ci") continue;
    const cp = await new Deno.Command("cp", {
      args: ["-r", `${ROOT}${entry.name}`, `${copy}/${entry.name}`],
    }).output();
    assert.equal(cp.code, 0);
  }
  await Deno.symlink(`${ROOT}node_modules`, `${copy}/node_modules`);
  return copy;
}

/**
 * One copy with a change planted in each of the spine source, the universe source and the
 * map's script, checked once (each check bundles the spine, the universe and the map): the
 * tests below read the lines each change must bring. Each plant names files of its own
 * (in a check the universe bundles the committed map module, not the planted one), and
 * the spine test checks the whole stderr, so a line that went missing, or one a change
 * brought that it should not, is caught.
 */
let planted: Promise<{ code: number; stderr: string }> | undefined;
function plantedCheck(): Promise<{ code: number; stderr: string }> {
  planted ??= (async () => {
    const copy = await copyOfRepository();
    try {
      const env = `${copy}/spine/env.ts`;
      const text = await Deno.readTextFile(env);
      await Deno.writeTextFile(
        env,
        text.replace('SPINE_VERSION = "0.1.0"', 'SPINE_VERSION = "0.1.1"'),
      );
      const config = `${copy}/universe/wrangler.jsonc`;
      const universe = await Deno.readTextFile(config);
      assert.ok(universe.includes('"0 * * * *"'));
      await Deno.writeTextFile(config, universe.replace('"0 * * * *"', '"30 * * * *"'));
      const words = `${copy}/universe/map/words.ts`;
      const map = await Deno.readTextFile(words);
      assert.ok(map.includes("Loading the universe…"));
      await Deno.writeTextFile(words, map.replace("Loading the universe…", "Loading…"));
      return await check(`${copy}/`);
    } finally {
      await Deno.remove(copy, { recursive: true });
    }
  })();
  return planted;
}

Deno.test("kit:check fails on planted changes and names each file: the spine source's, in the whole stderr", async () => {
  const r = await plantedCheck();
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    [
      "universe/_map_js.ts differs from what universe/map/ builds",
      "kit/spine/worker.js differs from what the spine source builds",
      "kit/spine/package.template.json differs from what the spine source builds",
      "kit/spine/VERSION differs from what the spine source builds",
      "kit/spine/README.md differs from what the spine source builds",
      "kit/_spine_kit.ts differs from what the spine source builds",
      "kit/_universe_kit.ts differs from what the universe source builds",
      STALE,
      "",
    ].join("\n"),
  );
});

Deno.test("kit:check names the cloud files: a changed migration, a new one, the CLI version, the Deno version", async () => {
  const copy = await copyOfRepository();
  try {
    const sql = `${copy}/spine/migrations/0001_cloud.sql`;
    await Deno.writeTextFile(sql, `${await Deno.readTextFile(sql)}\n-- planted\n`);
    await Deno.writeTextFile(`${copy}/spine/migrations/0002_more.sql`, "SELECT 1;\n");
    const cli = `${copy}/cli/deno.json`;
    await Deno.writeTextFile(
      cli,
      (await Deno.readTextFile(cli)).replace('"version": "0.1.0"', '"version": "0.1.9"'),
    );
    const ci = `${copy}/.ci/run`;
    await Deno.writeTextFile(
      ci,
      (await Deno.readTextFile(ci)).replace(/^DENO_VERSION=.*$/m, "DENO_VERSION=9.9.9"),
    );
    const r = await check(`${copy}/`);
    assert.equal(r.code, 1);
    // worker.js is left out: bundled in a copy whose node_modules is a link, its source
    // comments name other paths.
    assert.equal(
      r.stderr.split("\n").filter((line) => !line.startsWith("kit/spine/worker.js")).join("\n"),
      [
        "kit/spine/README.md differs from what the spine source builds",
        "kit/spine/cloud/Dockerfile differs from what the spine source builds",
        "kit/spine/cloud/migrations/0001_cloud.sql differs from what the spine source builds",
        "kit/spine/cloud/migrations/0002_more.sql is missing",
        "kit/_spine_kit.ts differs from what the spine source builds",
        STALE,
        "",
      ].join("\n"),
    );
    // A migration gone from the source is named too.
    await Deno.remove(`${copy}/spine/migrations/0002_more.sql`);
    await Deno.writeTextFile(`${copy}/kit/spine/cloud/migrations/0003_old.sql`, "SELECT 3;\n");
    const again = await check(`${copy}/`);
    assert.match(
      again.stderr,
      /^kit\/spine\/cloud\/migrations\/0003_old\.sql is not in the spine source any more$/m,
    );
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
});

Deno.test("kit:check names the universe module when the universe source changes", async () => {
  const r = await plantedCheck();
  assert.equal(r.code, 1);
  // The spine's and the map's lines are the other plants'.
  const universeLines = r.stderr.split("\n").filter((line) =>
    line !== "" && !line.startsWith("kit/spine/") && !line.startsWith("kit/_spine_kit.ts") &&
    !line.startsWith("universe/_map_js.ts")
  );
  assert.deepEqual(universeLines, [
    "kit/_universe_kit.ts differs from what the universe source builds",
    STALE,
  ]);
});

Deno.test("kit:check names the map's script module when universe/map/ changes", async () => {
  const r = await plantedCheck();
  assert.equal(r.code, 1);
  assert.ok(
    r.stderr.includes("universe/_map_js.ts differs from what universe/map/ builds\n"),
    r.stderr,
  );
});
