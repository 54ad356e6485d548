import assert from "node:assert/strict";
import { cameBack, tempDir } from "./_temp_dir.ts";

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

/** Stands for a helper such as `tempHome()`: the frame after it is the test's. */
function makeThroughHelper() {
  return tempDir("helper-");
}
