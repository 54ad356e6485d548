import assert from "node:assert/strict";
import { ALLOWED, checkModulePaths, ownLocationLines, withoutComments } from "./module_paths.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

Deno.test("ownLocationLines() finds import.meta.url in code and strings, not in comments", () => {
  const text = [
    "/** @example",
    " * new URL('./x', import.meta.url)",
    " */",
    "const a = 'import.meta.url is fine in a string';",
    "const b = new URL('./data.json', import.meta.url); // reads beside",
    "// import.meta.dirname in a comment",
    "const c = import.meta.dirname;",
  ].join("\n");
  assert.deepEqual(ownLocationLines("m.ts", text), ["m.ts:4", "m.ts:5", "m.ts:7"]);
  assert.equal(withoutComments("a /* x */ b // y").trimEnd(), "a         b");
});

Deno.test("the workspace passes; every allowed file exists", async () => {
  assert.deepEqual(await checkModulePaths(ROOT), []);
  for (const file of Object.keys(ALLOWED)) await Deno.stat(`${ROOT}/${file}`);
});

Deno.test("a planted read beside a module, and a task file the CLI reaches, are named", async () => {
  const root = await Deno.makeTempDir({ prefix: "agent-module-paths-" });
  try {
    await Deno.mkdir(`${root}/cli`);
    await Deno.mkdir(`${root}/hub`);
    await Deno.mkdir(`${root}/kit`);
    await Deno.writeTextFile(`${root}/deno.json`, "{}");
    await Deno.writeTextFile(
      `${root}/hub/data.ts`,
      "export const text = await Deno.readTextFile(new URL('./x.json', import.meta.url));\n",
    );
    await Deno.writeTextFile(`${root}/hub/data_test.ts`, "new URL('.', import.meta.url);\n");
    await Deno.writeTextFile(`${root}/kit/build_kit.ts`, "export const root = import.meta.url;\n");
    await Deno.writeTextFile(
      `${root}/cli/main.ts`,
      "await import('../kit/build_kit.ts');\nexport {};\n",
    );
    assert.deepEqual(await checkModulePaths(root), [
      "hub/data.ts:1: uses its module's location; ship the data in a generated module (kit:build) instead",
      "kit/build_kit.ts: the CLI reaches this task-only file (the kit:build task)",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
