import assert from "node:assert/strict";
import {
  absoluteImports,
  certsForDeno,
  chunk,
  docExamples,
  parseArgs,
  writeShards,
} from "./test_shards.ts";
import { tempDir } from "../tests/_temp_dir.ts";

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

Deno.test("parseArgs() keeps --shards, --doc, --ignore and --certs-for-deno, and gives the rest to deno test", () => {
  assert.deepEqual(
    parseArgs(["--shards", "3", "--doc", "--ignore=a/,b.ts", "--allow-read", "--", "hub/"]),
    {
      options: { roots: ["hub/"], shards: 3, doc: true, ignore: ["a/", "b.ts"] },
      flags: ["--allow-read"],
      certsForDeno: false,
    },
  );
  assert.equal(parseArgs(["--certs-for-deno", "--allow-read", "--", "hub/"])?.certsForDeno, true);
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

Deno.test("certsForDeno() hands NODE_EXTRA_CA_CERTS to Deno as DENO_CERT, and keeps a DENO_CERT set", () => {
  assert.deepEqual(certsForDeno({ NODE_EXTRA_CA_CERTS: "/ca.pem", HOME: "/h" }), {
    DENO_CERT: "/ca.pem",
    HOME: "/h",
  });
  assert.deepEqual(certsForDeno({ NODE_EXTRA_CA_CERTS: "/ca.pem", DENO_CERT: "/own.pem" }), {
    DENO_CERT: "/own.pem",
  });
  assert.deepEqual(certsForDeno({ NODE_EXTRA_CA_CERTS: "", HOME: "/h" }), { HOME: "/h" });
  assert.deepEqual(certsForDeno({ HOME: "/h" }), { HOME: "/h" });
});

Deno.test("--certs-for-deno: the shards see DENO_CERT, and no NODE_EXTRA_CA_CERTS", async () => {
  using tmp = tempDir();
  const ca = `${tmp.path}/ca.pem`;
  await Deno.copyFile("/etc/ssl/certs/ca-certificates.crt", ca).catch(() =>
    Deno.writeTextFile(ca, "")
  );
  // A DENO_CERT the machine sets is kept.
  const expected = Deno.env.get("DENO_CERT") || ca;
  await Deno.writeTextFile(
    `${tmp.path}/env_test.ts`,
    [
      'Deno.test("env", () => {',
      '  if (Deno.env.get("NODE_EXTRA_CA_CERTS") !== undefined) throw new Error("still set");',
      `  if (Deno.env.get("DENO_CERT") !== ${
        JSON.stringify(expected)
      }) throw new Error("DENO_CERT");`,
      "});",
      "",
    ].join("\n"),
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run",
      new URL("./test_shards.ts", import.meta.url).pathname,
      "--certs-for-deno",
      "--shards",
      "1",
      "--no-check",
      "--allow-env",
      "--allow-read",
      "--",
      "env_test.ts",
    ],
    cwd: tmp.path,
    env: { NODE_EXTRA_CA_CERTS: ca },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, text);
  assert.match(text, /1 passed/);
});
