import assert from "node:assert/strict";
import { guardedRun, leftLine, MAX_NAMES } from "./tmp_guard.ts";
import { tempDir } from "../tests/_temp_dir.ts";

Deno.test("guardedRun() gives the commands a private TMPDIR and removes it", async () => {
  await using parent = await tempDir("guard-test-");
  const report = await guardedRun([
    [["sh", "-c", 'test -d "$TMPDIR" && test "$TMUX_TMPDIR" = "$TMPDIR" && mktemp -d >/dev/null']],
    [["sh", "-c", 'rm -r "$TMPDIR"/tmp.*']],
  ], { parent: parent.path });
  assert.deepEqual(report, { code: 0, left: [] });
  assert.deepEqual([...Deno.readDirSync(parent.path)], []);
});

Deno.test("guardedRun() names a ports folder outside the counted one, and removes it", async () => {
  await using parent = await tempDir("guard-test-");
  const report = await guardedRun([
    [["sh", "-c", 'test -d "$AGENT_TEST_PORTS" && mkdir "$AGENT_TEST_PORTS/4242"']],
    [["sh", "-c", 'test -d "$AGENT_TEST_PORTS/4242" && test ! -e "$TMPDIR/4242"']],
  ], { parent: parent.path });
  assert.deepEqual(report, { code: 0, left: [] });
  assert.deepEqual([...Deno.readDirSync(parent.path)], []);
});

Deno.test("guardedRun() names what the commands left and still removes it", async () => {
  await using parent = await tempDir("guard-test-");
  const report = await guardedRun([
    [["sh", "-c", 'mkdir "$TMPDIR/b-dir" && touch "$TMPDIR/a-file" && chmod 500 "$TMPDIR/b-dir"']],
  ], { parent: parent.path });
  assert.deepEqual(report, { code: 0, left: ["a-file", "b-dir"] });
  assert.deepEqual([...Deno.readDirSync(parent.path)], []);
});

Deno.test("guardedRun() stops at the first failing command and passes its code on", async () => {
  await using parent = await tempDir("guard-test-");
  const report = await guardedRun([
    [["sh", "-c", "exit 3"]],
    [["sh", "-c", 'touch "$TMPDIR/never"']],
  ], { parent: parent.path });
  assert.deepEqual(report, { code: 3, left: [] });
});

Deno.test("guardedRun() runs a step's commands side by side and waits for all of them", async () => {
  await using parent = await tempDir("guard-test-");
  // Each command waits (up to 10 s) for the other's file: one after the other, the first
  // would give up. The failing one's code is the run's even though the other passed, and
  // the step after them does not run.
  const wait = (mine: string, theirs: string, exit: number) => [
    "sh",
    "-c",
    `touch "$TMPDIR/${mine}"; i=0; while [ ! -e "$TMPDIR/${theirs}" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; test -e "$TMPDIR/${theirs}" && exit ${exit}`,
  ];
  const report = await guardedRun([
    [wait("a", "b", 0), wait("b", "a", 4)],
    [["sh", "-c", 'touch "$TMPDIR/never"']],
  ], { parent: parent.path });
  assert.deepEqual(report, { code: 4, left: ["a", "b"] });
});

Deno.test("leftLine() is one line with at most twenty names", () => {
  assert.equal(leftLine(["x"]), "The tests left 1 entry in the temp folder: x");
  const many = Array.from({ length: 25 }, (_, i) => `d${String(i).padStart(2, "0")}`);
  const line = leftLine(many);
  assert.ok(!line.includes("\n"));
  assert.ok(line.startsWith("The tests left 25 entries in the temp folder: d00, d01,"), line);
  assert.ok(line.endsWith(`d${MAX_NAMES - 1}, and 5 more`), line);
});
