/**
 * The kit's bundlers try `deno bundle` again when it lost Deno's own first-use race
 * (two processes installing esbuild into one `DENO_DIR` at once), and only then: a
 * stand-in `deno` prints the race's message for its first calls, or another error, and
 * counts how often it was run. Both bundlers are driven through their doors: the Workers'
 * (`bundleWorker`) and the brain's (`brainBundle`, as `agent net spine init --cloud` runs
 * it from a checkout).
 */
import assert from "node:assert/strict";
import { bundleWorker } from "@agent/kit";
import { brainBundle, BrainBundleError } from "@agent/kit/spine";
import { tempDir } from "../_temp_dir.ts";

/** What Deno 2.9 printed when two first uses of `deno bundle` met (seen here). */
const RACE = "error: failed to copy esbuild binary from " +
  "/d/npm/registry.npmjs.org/@esbuild/linux-x64/0.25.5/bin/esbuild to " +
  "/d/dl/esbuild-0.25.5-1/.esbuild-7158.tmp\n    No such file or directory (os error 2)";
/** The other form of the race, as `deno task ok` met it on a new machine. */
const RACE_FETCH =
  'error: Failed loading https://registry.npmjs.org/@esbuild%2flinux-x64 for package "@esbuild/linux-x64"';

/**
 * A stand-in `deno` in `dir`: its first `failures` calls print `message` and exit 1, the
 * next writes the `--output` file. Every call adds a line to `calls`.
 */
function standIn(dir: string, failures: number, message: string): { deno: string; calls: string } {
  const deno = `${dir}/deno`;
  const calls = `${dir}/calls`;
  Deno.writeTextFileSync(
    deno,
    `#!/bin/sh
echo call >> '${calls}'
n=$(wc -l < '${calls}')
if [ "$n" -le ${failures} ]; then
  cat >&2 <<'EOF'
${message}
EOF
  exit 1
fi
out=""; prev=""
for a in "$@"; do [ "$prev" = "--output" ] && out="$a"; prev="$a"; done
printf 'export const made = %s;\\n' "$n" > "$out"
`,
  );
  Deno.chmodSync(deno, 0o755);
  return { deno, calls };
}

function callCount(calls: string): number {
  return Deno.readTextFileSync(calls).trim().split("\n").length;
}

Deno.test("bundleWorker() tries again after a lost esbuild install race and returns the bundle", async () => {
  using tmp = tempDir("deno-bundle-race-");
  const { deno, calls } = standIn(tmp.path, 2, RACE);
  const text = await bundleWorker(`${tmp.path}/worker.ts`, `${tmp.path}/out.js`, {
    deno,
    label: "the spine",
  });
  assert.equal(text, "export const made = 3;\n");
  assert.equal(callCount(calls), 3);
});

Deno.test("brainBundle() from a checkout tries again after the race's fetch form", async () => {
  using tmp = tempDir("deno-bundle-race-");
  const { deno, calls } = standIn(tmp.path, 1, RACE_FETCH);
  Deno.writeTextFileSync(`${tmp.path}/main.ts`, "console.log(1);\n");
  const made = await brainBundle({
    mainModule: `file://${tmp.path}/main.ts`,
    standalone: false,
    deno,
  });
  assert.equal(made.origin, "bundled");
  assert.equal(new TextDecoder().decode(made.bytes), "export const made = 2;\n");
  assert.equal(callCount(calls), 2);
});

Deno.test("another bundling error is not tried again: one call, the bundler's line in the error", async () => {
  using tmp = tempDir("deno-bundle-race-");
  const missing = 'error: Module not found "file:///d/missing.ts".';
  const { deno, calls } = standIn(tmp.path, 9, missing);
  await assert.rejects(
    bundleWorker(`${tmp.path}/worker.ts`, `${tmp.path}/out.js`, { deno, label: "the spine" }),
    /^Error: Cannot bundle the spine: error: Module not found/,
  );
  assert.equal(callCount(calls), 1);
  await assert.rejects(
    brainBundle({ mainModule: `file://${tmp.path}/main.ts`, standalone: false, deno }),
    (error) => error instanceof BrainBundleError && /Module not found/.test(error.message),
  );
  assert.equal(callCount(calls), 2);
});

Deno.test("a race that does not end is given up after five calls, with Deno's message", async () => {
  using tmp = tempDir("deno-bundle-race-");
  const { deno, calls } = standIn(tmp.path, 99, RACE);
  await assert.rejects(
    bundleWorker(`${tmp.path}/worker.ts`, `${tmp.path}/out.js`, { deno, label: "the spine" }),
    /Cannot bundle the spine: .*failed to copy esbuild binary/,
  );
  assert.equal(callCount(calls), 5);
});
