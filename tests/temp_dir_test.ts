import assert from "node:assert/strict";
import { cameBack, removeTree, tempDir } from "./_temp_dir.ts";

Deno.test("cameBack() names a removed folder that was written again, and removes it", async () => {
  let path: string;
  {
    await using tmp = tempDir();
    path = tmp.path;
  }
  assert.deepEqual(cameBack(), []);
  // What a hub left running does after its test ended: a recursive mkdir for a log.
  await Deno.mkdir(`${path}/data/logs`, { recursive: true });
  await Deno.writeTextFile(`${path}/data/logs/agent.log`, "late\n");
  const lines = cameBack();
  assert.equal(lines.length, 1);
  assert.match(
    lines[0]!,
    /^\/.+\/agent-test-\w+ \(made at tests\/temp_dir_test\.ts:7\) was written again after its test removed it: data\/logs\/agent\.log$/,
  );
  await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
  assert.deepEqual(cameBack(), [], "named once");
});

Deno.test("cameBack() names the test's line and the helper that made the folder", () => {
  using tmp = makeThroughHelper();
  const path = tmp.path;
  tmp[Symbol.dispose]();
  Deno.mkdirSync(path);
  const lines = cameBack();
  assert.match(
    lines[0] ?? "",
    /\(made at tests\/temp_dir_test\.ts:25 \(through tests\/temp_dir_test\.ts:\d+\)\) was written again after its test removed it$/,
  );
});

Deno.test("cameBack() names the line that gave removeTree() a folder made elsewhere", async () => {
  const path = await Deno.makeTempDir({ prefix: "made-elsewhere-" });
  await removeTree(path);
  await Deno.mkdir(path);
  assert.match(
    cameBack()[0] ?? "",
    /\(removed at tests\/temp_dir_test\.ts:\d+\) was written again after its test removed it$/,
  );
});

/** Stands for a helper such as `tempHome()`: the frame after it is the test's. */
function makeThroughHelper() {
  return tempDir("helper-");
}

const ROOT = new URL("../", import.meta.url).pathname;

/** A test file whose test removes its folder and leaves a timer that writes into it. */
const LEAKS = `import { tempDir } from ${
  JSON.stringify(new URL("./_temp_dir.ts", import.meta.url).href)
};
Deno.test({ name: "leaves a writer", sanitizeOps: false, fn() {
  using tmp = tempDir();
  setTimeout(() => Deno.mkdirSync(tmp.path + "/data/logs", { recursive: true }), 50);
} });
`;

Deno.test("a test file that leaves a writer fails its run, alone and in a shard, naming its line", async () => {
  await using dir = tempDir("leaks-");
  await Deno.writeTextFile(`${dir.path}/leaks_test.ts`, LEAKS);
  await Deno.writeTextFile(
    `${dir.path}/later_test.ts`,
    `Deno.test("later", () => new Promise((r) => setTimeout(r, 300)));\n`,
  );
  const flags = ["--no-check", "--no-prompt", "--allow-read", "--allow-write", "--allow-env"];
  const runs = {
    alone: ["test", ...flags, `${dir.path}/leaks_test.ts`],
    shard: [
      "run",
      ...flags,
      "--allow-run",
      `${ROOT}_tools/test_shards.ts`,
      "--shards",
      "1",
      ...flags,
      "--",
      dir.path,
    ],
  };
  for (const [name, args] of Object.entries(runs)) {
    const out = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: dir.path,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1, `${name}: ${text}`);
    assert.match(
      text,
      /something a test started and did not stop wrote into a folder after the test removed it:\n\S+\/agent-test-\w+ \(made at \S*leaks_test\.ts:3\) was written again after its test removed it\n/,
      name,
    );
  }
  assert.deepEqual([...Deno.readDirSync(dir.path)].map((e) => e.name).sort(), [
    "later_test.ts",
    "leaks_test.ts",
  ]);
});
