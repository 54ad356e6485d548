import assert from "node:assert/strict";
import {
  absoluteImports,
  chunk,
  docExamples,
  fileWeights,
  parseArgs,
  shardNames,
  writeShards,
} from "./test_shards.ts";

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
  assert.deepEqual(parseArgs(["--times", "t.json", "--", "tests/"])?.options.timesFile, "t.json");
  assert.equal(parseArgs(["--times", "--", "tests/"]), null, "--times without its file");
});

Deno.test("fileWeights() weighs a file by its time, an unnamed one by its size at the named files' rate", () => {
  const files = [["a_test.ts", 1_000], ["b_test.ts", 3_000], ["new_test.ts", 2_000]] as const;
  assert.deepEqual(fileWeights(files, { "a_test.ts": 2, "b_test.ts": 6 }), [2, 6, 4]);
  assert.deepEqual(fileWeights(files), [3_000, 5_000, 4_000], "sizes without times");
  assert.deepEqual(fileWeights([["c_test.ts", 500]], {}), [0.05], "no file named: 10 kB a second");
});

Deno.test("shardNames() has deno test start the heaviest shard first, in its name order", () => {
  const weights = [3, 9, 1, 9, 5, 2, 8, 7, 4, 6, 0.5];
  const names = shardNames(weights);
  assert.equal(new Set(names).size, weights.length);
  // deno test sorts the names as strings: zero-padded, that is the rank.
  const run = names.map((name, i) => ({ name, weight: weights[i]! }))
    .sort((a, b) => a.name < b.name ? -1 : 1).map((s) => s.weight);
  assert.deepEqual(run, [9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0.5]);
  assert.equal(names[1], "shard_01_test.ts", "the first of two equal ones first");
  assert.equal(names[10], "shard_11_test.ts");
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
    // With times, the slow file gets a shard of its own, named to run first; the light ones
    // share the other.
    const timed = await Deno.makeTempDir();
    await writeShards(timed, {
      root: repo,
      roots: ["hub/"],
      shards: 2,
      ignore: ["hub/left_test.ts"],
      times: { "hub/add_test.ts": 30, "hub/test.ts": 1, "hub/x.test.tsx": 1 },
    });
    const [first, second] = await Promise.all(
      ["shard_1_test.ts", "shard_2_test.ts"].map((n) => Deno.readTextFile(`${timed}/${n}`)),
    );
    await Deno.remove(timed, { recursive: true });
    assert.equal(first!.trim(), `import "file://${repo}/hub/add_test.ts";`);
    assert.match(second!, /hub\/test\.ts";\nimport "file:\/\/.*hub\/x\.test\.tsx";/);
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
