/**
 * `deno test --parallel` runs many test files in one process, and the environment and the
 * working directory are the process's: a file that sets TMPDIR or changes directory changes
 * them for every file beside it. One test that set TMPDIR to a folder of its own, and failed
 * before putting it back, sent every later file's temp folders into a removed one (297
 * failures on CI). This test reads every test file and test helper for such a call.
 *
 * `CLOUDFLARE_CF_FETCH_ENABLED=false` is the one exception: every Miniflare test sets it to
 * the value CI already exports.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).pathname;
const FOLDERS = ["tests", "cli", "hub", "net", "kit", "spine", "universe", "_tools"];
const CHANGES = /Deno\.env\.(?:set|delete)\(\s*["'`]?([A-Z_]*)|Deno\.chdir\(/g;

/** Test files (`*_test.ts`) and, under tests/, every module (helpers run inside tests). */
async function* testModules(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && entry.name !== "node_modules") yield* testModules(path);
    else if (
      entry.isFile && entry.name.endsWith(".ts") &&
      (entry.name.endsWith("_test.ts") ||
        (path.startsWith("tests/") && !path.startsWith("tests/bench/")))
    ) yield path;
  }
}

/** `path:line: text` for each call that changes what the process shares. */
export function sharedChanges(path: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, i) => {
    for (const match of line.matchAll(CHANGES)) {
      if (match[1] === "CLOUDFLARE_CF_FETCH_ENABLED") continue;
      found.push(`${path}:${i + 1}: ${line.trim()}`);
    }
  });
  return found;
}

Deno.test("no test file or test helper changes the process's environment or directory", async () => {
  const found: string[] = [];
  for (const folder of FOLDERS) {
    for await (const path of testModules(folder)) {
      if (path === "tests/shared_process_test.ts") continue;
      found.push(...sharedChanges(path, await Deno.readTextFile(`${ROOT}${path}`)));
    }
  }
  assert.deepEqual(found, []);
});

Deno.test("sharedChanges() names TMPDIR set in place and a chdir, not the Miniflare flag", () => {
  const text = [
    'Deno.env.set("CLOUDFLARE_CF_FETCH_ENABLED", "false");',
    'Deno.env.set("TMPDIR", own.path);',
    "Deno.env.delete('HOME');",
    "Deno.chdir(dir);",
    'const env = { TMPDIR: "x" }; // a child\'s own environment is fine',
  ].join("\n");
  assert.deepEqual(sharedChanges("a_test.ts", text), [
    'a_test.ts:2: Deno.env.set("TMPDIR", own.path);',
    "a_test.ts:3: Deno.env.delete('HOME');",
    "a_test.ts:4: Deno.chdir(dir);",
  ]);
});
