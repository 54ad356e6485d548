import assert from "node:assert/strict";
import { absoluteImports, chunk, docExamples, parseArgs, writeShards } from "./test_shards.ts";

const SOURCE = [
  "/**",
  " * Adds.",
  " *",
  " * ```ts",
  ' * import { add } from "./add.ts";',
  " * if (add(1, 2) !== 3) throw new Error();",
  " * ```",
  " *",
  " * ```ts ignore",
  " * add(); // not run",
  " * ```",
  " *",
  " * ```md",
  " * # not code",
  " * ```",
  " */",
  "export function add(a: number, b: number): number {",
  "  /** A comment that shows a fence: ``` is not a block. */",
  "  return a + b;",
  "}",
  "/** ```js",
  " * console.log(1);",
  " * ```",
  " */",
].join("\n");

Deno.test("docExamples() finds the blocks deno test --doc runs, named as it names them", () => {
  const examples = docExamples(SOURCE, "hub/add.ts");
  assert.deepEqual(examples.map((e) => e.name), ["hub/add.ts#4-8", "hub/add.ts#21-24"]);
  assert.equal(
    examples[0]!.code,
    'import { add } from "./add.ts";\nif (add(1, 2) !== 3) throw new Error();',
  );
  assert.equal(examples[1]!.code, "console.log(1);");
});

Deno.test("absoluteImports() makes relative imports absolute, leaves bare ones, gives import.meta.url", () => {
  const code = [
    'import { a } from "./a.ts";',
    "import type { B } from '../b.ts';",
    'const c = await import("./c/c.ts");',
    'import { z } from "zod";',
    'const d = new URL("../d.json", import.meta.url);',
  ].join("\n");
  assert.equal(
    absoluteImports(code, "file:///repo/hub/x.ts"),
    [
      'import { a } from "file:///repo/hub/a.ts";',
      "import type { B } from 'file:///repo/b.ts';",
      'const c = await import("file:///repo/hub/c/c.ts");',
      'import { z } from "zod";',
      'const d = new URL("../d.json", "file:///repo/hub/x.ts");',
    ].join("\n"),
  );
});

Deno.test("chunk() cuts items in order into at most n runs of nearly equal weight", () => {
  assert.deepEqual(chunk([5, 1, 4, 2, 3], (n) => n, 2), [[5, 1, 4], [2, 3]]);
  assert.deepEqual(chunk([1, 1, 1, 1], (n) => n, 4), [[1], [1], [1], [1]]);
  assert.deepEqual(chunk([1], (n) => n, 4), [[1]]);
  assert.deepEqual(chunk([], (n: number) => n, 3), [[]]);
});

Deno.test("parseArgs() keeps --shards, --doc and --ignore, and gives the rest to deno test", () => {
  assert.deepEqual(
    parseArgs(["--shards", "3", "--doc", "--ignore=a/,b.ts", "--allow-read", "--", "hub/"]),
    {
      options: { roots: ["hub/"], shards: 3, doc: true, ignore: ["a/", "b.ts"] },
      flags: ["--allow-read"],
    },
  );
  assert.equal(parseArgs(["--allow-read", "hub/"]), null);
  assert.equal(parseArgs(["--shards", "0", "--", "hub/"]), null);
});

Deno.test("writeShards() imports every test file once, leaves out the ignored, writes every example as a module", async () => {
  const repo = await Deno.makeTempDir();
  const out = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${repo}/hub/.hidden`, { recursive: true });
    await Deno.mkdir(`${repo}/hub/node_modules`);
    await Deno.writeTextFile(`${repo}/hub/add.ts`, SOURCE);
    await Deno.writeTextFile(`${repo}/hub/add_test.ts`, "");
    await Deno.writeTextFile(`${repo}/hub/test.ts`, "");
    await Deno.writeTextFile(`${repo}/hub/x.test.tsx`, "");
    await Deno.writeTextFile(`${repo}/hub/.hidden/y_test.ts`, "");
    await Deno.writeTextFile(`${repo}/hub/node_modules/z_test.ts`, "");
    await Deno.writeTextFile(`${repo}/hub/left_test.ts`, "");
    const counts = await writeShards(out, {
      root: repo,
      roots: ["hub/"],
      shards: 2,
      doc: true,
      ignore: ["hub/left_test.ts"],
    });
    assert.deepEqual(counts, { tests: 3, examples: 2 });
    const plain = await Deno.makeTempDir();
    const without = await writeShards(plain, { root: repo, roots: ["hub/"], shards: 1 });
    await Deno.remove(plain, { recursive: true });
    assert.deepEqual(without, { tests: 4, examples: 0 }, "no examples without doc");
    const names = [];
    for await (const entry of Deno.readDir(out)) names.push(entry.name);
    assert.deepEqual(names.sort(), [
      "example_0.ts",
      "example_1.ts",
      "shard_1_test.ts",
      "shard_2_test.ts",
    ]);
    const shards = (await Promise.all(
      ["shard_1_test.ts", "shard_2_test.ts"].map((n) => Deno.readTextFile(`${out}/${n}`)),
    )).join("\n");
    for (const test of ["add_test.ts", "test.ts", "x.test.tsx"]) {
      assert.equal(shards.split(`import "file://${repo}/hub/${test}";`).length, 2, test);
    }
    assert.doesNotMatch(shards, /left_test/);
    assert.match(shards, /Deno\.test\("hub\/add\.ts#4-8", async \(\) => \{/);
    assert.match(
      await Deno.readTextFile(`${out}/example_0.ts`),
      new RegExp(`from "file://${repo}/hub/add\\.ts"`),
    );
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(out, { recursive: true });
  }
});
