import assert from "node:assert/strict";
import {
  checkDoors,
  DoorsSetupError,
  findCycles,
  findFolderCycles,
  findStarExports,
  type Member,
} from "./doors.ts";
import { type TempDir, tempDir } from "../../tests/_temp_dir.ts";

const CHECKER = new URL("./doors.ts", import.meta.url).pathname;

/**
 * A small workspace shaped like ours: `net` (a leaf), `hub` (imports net; layered like
 * the real hub) and `cli` (imports hub and net), plus `tests/` and a root `mod.ts`.
 * `extra` adds or replaces files.
 */
async function plant(extra: Record<string, string> = {}): Promise<TempDir> {
  const tree = await tempDir("doors_");
  const root = tree.path;
  const member = (name: string, exports: unknown) =>
    JSON.stringify({ name: `@agent/${name}`, version: "0.1.0", exports });
  const files: Record<string, string> = {
    "deno.json": JSON.stringify({ workspace: ["./net", "./hub", "./cli"] }),
    "mod.ts": `export * as hub from "@agent/hub";\n`,
    "net/deno.json": member("net", "./mod.ts"),
    "net/mod.ts": `export { b64u } from "./b64u.ts";\n`,
    "net/b64u.ts": `export const b64u = 1;\n`,
    "hub/deno.json": member("hub", { ".": "./mod.ts", "./base": "./base.ts" }),
    "hub/base.ts": `export { paths } from "./paths.ts";\n`,
    "hub/paths.ts": `export const paths = 1;\n`,
    "hub/ledger/mod.ts": `import { paths } from "../paths.ts";\nexport const money = paths;\n`,
    "hub/agent/mod.ts": `import { money } from "../ledger/mod.ts";\nexport const agent = money;\n`,
    "hub/mod.ts": `export { agent } from "./agent/mod.ts";\nexport { b64u } from "@agent/net";\n`,
    "cli/deno.json": member("cli", "./mod.ts"),
    "cli/mod.ts":
      `import { agent } from "@agent/hub";\nimport { paths } from "@agent/hub/base";\n` +
      `export const cli = agent + paths;\n`,
    "tests/cli_test.ts": `import { cli } from "@agent/cli";\nDeno.test("x", () => void cli);\n`,
    ...extra,
  };
  for (const [path, text] of Object.entries(files)) {
    const file = `${root}/${path}`;
    await Deno.mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(file, text);
  }
  return tree;
}

Deno.test("checkDoors() passes a tree whose imports go through doors, one way", async () => {
  await using tree = await plant();
  const report = await checkDoors(tree.path);
  assert.deepEqual(report.problems, []);
  assert.equal(report.files, 10);
  assert.ok(report.imports >= 8, String(report.imports));
});

Deno.test("checkDoors() names a deep import of another member's file and its doors", async () => {
  await using tree = await plant({
    "cli/mod.ts": `import { paths } from "../hub/paths.ts";\nexport const cli = paths;\n`,
  });
  assert.deepEqual((await checkDoors(tree.path)).problems, [
    "cli/mod.ts:1: imports hub/paths.ts, which is not a door of @agent/hub; " +
    "its doors: hub/mod.ts, hub/base.ts",
  ]);
});

Deno.test("checkDoors() wants another member's door imported by its package name", async () => {
  await using tree = await plant({
    "cli/mod.ts": `import { agent } from "../hub/mod.ts";\nexport const cli = agent;\n`,
  });
  assert.deepEqual((await checkDoors(tree.path)).problems, [
    "cli/mod.ts:1: imports ../hub/mod.ts; import @agent/hub by its name",
  ]);
});

Deno.test("checkDoors() holds tests/ to the doors too", async () => {
  await using tree = await plant({
    "tests/cli_test.ts": `import { money } from "../hub/ledger/mod.ts";\nvoid money;\n`,
  });
  assert.deepEqual((await checkDoors(tree.path)).problems, [
    "tests/cli_test.ts:1: imports hub/ledger/mod.ts, which is not a door of @agent/hub; " +
    "its doors: hub/mod.ts, hub/base.ts",
  ]);
});

Deno.test("checkDoors() lets a member's test files, and only they, import tests/_*.ts", async () => {
  await using tree = await plant({
    "tests/_poll.ts": `export const until = 1;\n`,
    "tests/hub/_agents.ts": `export const agents = 1;\n`,
    "hub/money/ledger_test.ts": `import { until } from "../../tests/_poll.ts";\nvoid until;\n`,
    "hub/money/_testing.ts":
      `import { until } from "../../tests/_poll.ts";\nexport const u = until;\n`,
    "hub/money/ledger.ts":
      `import { until } from "../../tests/_poll.ts";\nexport const l = until;\n`,
    "hub/money/spend_test.ts":
      `import { agents } from "../../tests/hub/_agents.ts";\nvoid agents;\n`,
  });
  assert.deepEqual((await checkDoors(tree.path)).problems, [
    "hub/money/ledger.ts:1: imports tests/_poll.ts, which is outside every package",
    "hub/money/spend_test.ts:1: imports tests/hub/_agents.ts, which is outside every package",
  ]);
});

Deno.test("checkDoors() refuses an import against the allowed direction", async () => {
  await using tree = await plant({
    "net/b64u.ts": `import { agent } from "@agent/hub";\nexport const b64u = agent;\n`,
  });
  const problems = (await checkDoors(tree.path)).problems;
  assert.ok(
    problems.includes("net/b64u.ts:1: imports hub/mod.ts, but net may import no member"),
    problems.join("\n"),
  );
  // net -> hub -> net is also a cycle between files.
  assert.ok(problems.some((p) => p.startsWith("import cycle: ")), problems.join("\n"));
});

Deno.test("checkDoors() prints a two-file and a three-file cycle as paths", async () => {
  await using tree = await plant({
    "hub/ledger/a.ts": `import { b } from "./b.ts";\nexport const a = () => b;\n`,
    "hub/ledger/b.ts": `import { a } from "./a.ts";\nexport const b = () => a;\n`,
    "hub/agent/x.ts": `import { y } from "./y.ts";\nexport const x = () => y;\n`,
    "hub/agent/y.ts": `import { z } from "./z.ts";\nexport const y = () => z;\n`,
    "hub/agent/z.ts": `import { x } from "./x.ts";\nexport const z = () => x;\n`,
  });
  assert.deepEqual((await checkDoors(tree.path)).problems, [
    "import cycle: hub/agent/x.ts -> hub/agent/y.ts -> hub/agent/z.ts -> hub/agent/x.ts",
    "import cycle: hub/ledger/a.ts -> hub/ledger/b.ts -> hub/ledger/a.ts",
  ]);
});

Deno.test("checkDoors() counts dynamic and type-only imports in cycles", async () => {
  await using tree = await plant({
    "cli/registry.ts": `export const load = () => import("./doctor.ts");\n`,
    "cli/doctor.ts": `import type { load } from "./registry.ts";\nexport type L = typeof load;\n`,
  });
  assert.deepEqual((await checkDoors(tree.path)).problems, [
    "import cycle: cli/doctor.ts -> cli/registry.ts -> cli/doctor.ts",
  ]);
});

Deno.test("checkDoors() refuses an import up the hub's layers and a file in no layer", async () => {
  await using tree = await plant({
    "hub/ledger/mod.ts": `import { agent } from "../agent/mod.ts";\nexport const money = agent;\n`,
    "hub/agent/mod.ts": `export const agent = 1;\n`,
    "hub/stray.ts": `import { paths } from "./paths.ts";\nexport const stray = paths;\n`,
  });
  assert.deepEqual((await checkDoors(tree.path)).problems, [
    "hub/ledger/mod.ts:1: imports hub/agent/mod.ts (layer agent) from layer domain: " +
    "layers import only their own layer or below",
    "hub/stray.ts:1: is in no layer of hub (add it to LAYERS)",
  ]);
});

Deno.test("checkDoors() fails a cycle between folders, naming both and one import of each arrow", async () => {
  await using tree = await plant({
    // No file cycle (rows -> sum -> mod -> paths), but ledger/ and spend/ import each other.
    "hub/ledger/rows.ts": `import { sum } from "../spend/sum.ts";\nexport const rows = sum;\n`,
    "hub/spend/sum.ts": `import { money } from "../ledger/mod.ts";\nexport const sum = money;\n`,
    // A test may wire folders both ways: it is left out.
    "hub/spend/sum_test.ts": `import { rows } from "../ledger/rows.ts";\nvoid rows;\n`,
  });
  assert.deepEqual((await checkDoors(tree.path)).problems, [
    "folder cycle: hub/ledger/ -> hub/spend/ -> hub/ledger/ " +
    "(hub/ledger/rows.ts:1 imports hub/spend/sum.ts; hub/spend/sum.ts:1 imports hub/ledger/mod.ts)",
  ]);
});

Deno.test("findFolderCycles() passes an allowed cycle and names an allowed one that is gone", () => {
  const members: Member[] = [{ dir: "hub", name: "@agent/hub", doors: ["hub/mod.ts"] }];
  const both = [
    { from: "hub/desk/a.ts", to: "hub/jobs/b.ts", line: 3 },
    { from: "hub/jobs/b.ts", to: "hub/desk/c.ts", line: 7 },
  ];
  assert.deepEqual(findFolderCycles(both, members, [["hub/jobs/", "hub/desk/"]]), []);
  assert.deepEqual(findFolderCycles(both, members, []), [
    "folder cycle: hub/desk/ -> hub/jobs/ -> hub/desk/ " +
    "(hub/desk/a.ts:3 imports hub/jobs/b.ts; hub/jobs/b.ts:7 imports hub/desk/c.ts)",
  ]);
  // One way only: the entry is stale and must go.
  assert.deepEqual(findFolderCycles(both.slice(0, 1), members, [["hub/desk/", "hub/jobs/"]]), [
    "folder cycle hub/desk/ <-> hub/jobs/ is no longer one: remove it from FOLDER_CYCLES_ALLOWED",
  ]);
  // A top-level file is a folder of its own: the root door importing everything is no cycle.
  assert.deepEqual(
    findFolderCycles(
      [
        { from: "hub/mod.ts", to: "hub/desk/a.ts" },
        { from: "hub/desk/a.ts", to: "hub/paths.ts" },
      ],
      members,
      [],
    ),
    [],
  );
  // Three folders round: one sentence, the path through them.
  assert.deepEqual(
    findFolderCycles(
      [
        { from: "hub/a/x.ts", to: "hub/b/y.ts" },
        { from: "hub/b/y.ts", to: "hub/c/z.ts" },
        { from: "hub/c/z.ts", to: "hub/a/w.ts" },
      ],
      members,
      [],
    ),
    [
      "folder cycle: hub/a/ -> hub/b/ -> hub/c/ -> hub/a/ (hub/a/x.ts imports hub/b/y.ts; " +
      "hub/b/y.ts imports hub/c/z.ts; hub/c/z.ts imports hub/a/w.ts)",
    ],
  );
});

Deno.test("checkDoors() reports an import that does not resolve", async () => {
  await using tree = await plant({
    "net/b64u.ts": `import { gone } from "./gone.ts";\nexport const b64u = gone;\n`,
  });
  const problems = (await checkDoors(tree.path)).problems;
  assert.equal(problems.length, 1, problems.join("\n"));
  assert.match(problems[0]!, /^net\/b64u\.ts:1: \.\/gone\.ts \(.*\): the import does not resolve$/);
});

Deno.test("checkDoors() refuses a tree that is not a workspace", async () => {
  await using tree = await plant({ "deno.json": "{}" });
  await assert.rejects(checkDoors(tree.path), DoorsSetupError);
});

Deno.test("findCycles() finds a file that imports itself", () => {
  assert.deepEqual(findCycles([{ from: "a.ts", to: "a.ts" }]), [["a.ts", "a.ts"]]);
  assert.deepEqual(findCycles([{ from: "a.ts", to: "b.ts" }]), []);
});

Deno.test("lint:doors exits 1 and prints each problem on a planted tree, 0 on a clean one", async () => {
  const run = async (root: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-write",
        "--allow-run",
        "--allow-env",
        CHECKER,
        "--root",
        root,
      ],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
  };
  await using bad = await plant({
    "cli/mod.ts": `import { paths } from "../hub/paths.ts";\nexport const cli = paths;\n`,
  });
  const badRun = await run(bad.path);
  assert.equal(badRun.code, 1);
  assert.match(badRun.stdout, /^cli\/mod\.ts:1: imports hub\/paths\.ts, which is not a door/m);
  assert.match(badRun.stdout, /^doors: 1 problem\(s\) in 10 files$/m);
  await using good = await plant();
  const goodRun = await run(good.path);
  assert.equal(goodRun.code, 0);
  assert.match(goodRun.stdout, /^doors: 10 files, \d+ imports, no problems$/m);
});

Deno.test("checkDoors() refuses export * in a door of any member, by file and line", async () => {
  await using tree = await plant({
    "hub/mod.ts": '/**\n * Not this one: `export * from "./x.ts"`.\n * @module\n */\n' +
      `export { agent } from "./agent/mod.ts";\nexport * from "./ledger/mod.ts";\n` +
      `export type * from "./paths.ts";\n`,
    "net/mod.ts": `export * as codec from "./b64u.ts";\nexport { b64u } from "./b64u.ts";\n`,
    // Not a door: a module inside a member may re-export as it likes.
    "hub/ledger/all.ts": `export * from "./mod.ts";\n`,
  });
  const tail = "lists its names (export { ... } from), never export *";
  assert.deepEqual((await checkDoors(tree.path)).problems, [
    `hub/mod.ts:6: export * from "./ledger/mod.ts": a door of @agent/hub ${tail}`,
    `hub/mod.ts:7: export type * from "./paths.ts": a door of @agent/hub ${tail}`,
    `net/mod.ts:1: export * as codec from "./b64u.ts": a door of @agent/net ${tail}`,
  ]);
});

Deno.test("findStarExports() skips comments and strings and keeps lines", () => {
  const source = [
    `// export * from "./a.ts";`,
    `const s = "export * from './b.ts'";`,
    "const t = `",
    `export * from "./c.ts"`,
    "`;",
    `export   *   from   './d.ts';`,
    `export type * from "./e.ts"; export * as f from "./f.ts";`,
  ].join("\n");
  assert.deepEqual(findStarExports(source), [
    { line: 6, text: `export * from './d.ts'` },
    { line: 7, text: `export type * from "./e.ts"` },
    { line: 7, text: `export * as f from "./f.ts"` },
  ]);
});
