import assert from "node:assert/strict";
import { tempDir } from "../tests/_temp_dir.ts";
import { ManualClock, testClock, testNow } from "./clock.ts";

Deno.test("ManualClock fires the timers it passes in time order, and a due one at once", async () => {
  const clock = new ManualClock(0);
  const fired: string[] = [];
  clock.after(300, () => fired.push(`b@${clock.now()}`));
  clock.after(100, () => fired.push(`a@${clock.now()}`));
  const cancel = clock.after(200, () => fired.push("cancelled"));
  cancel();
  clock.advance(250);
  assert.deepEqual(fired, ["a@100"]);
  clock.set(1_000);
  assert.deepEqual(fired, ["a@100", "b@300"]);
  assert.equal(clock.now(), 1_000);
  clock.after(0, () => fired.push("now"));
  assert.equal(fired.length, 2, "a due timer fires after the caller's turn");
  await Promise.resolve();
  assert.deepEqual(fired.at(-1), "now");
  clock.set(10);
  assert.equal(clock.now(), 1_000, "never back");
});

Deno.test("testClock() steps a hub's clock through AGENT_TEST_CLOCK, from a checkout only", async () => {
  using tmp = tempDir("clock_test_");
  const file = `${tmp.path}/clock`;
  Deno.writeTextFileSync(file, "5000");
  const env = { AGENT_TEST_CLOCK: file };
  assert.equal(testClock({}), undefined);
  assert.equal(testClock(env, "file:///somewhere/dist/agent.js"), undefined);
  assert.equal(testClock(env, "https://jsr.io/@agent/hub/0.1.0/clock.ts"), undefined);
  const clock = testClock(env)!;
  try {
    assert.equal(clock.now(), 5000);
    let fired: number | undefined;
    clock.after(1_000, () => fired = clock.now());
    Deno.writeTextFileSync(file, "5999");
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(fired, undefined);
    Deno.writeTextFileSync(file, "6000");
    // The clock's look at its file keeps no process alive: this test waits for it.
    const deadline = Date.now() + 5_000;
    while (fired === undefined && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(fired, 6000);
  } finally {
    clock.close();
  }
});

Deno.test("testNow() reads AGENT_TEST_CLOCK at every call, from a checkout only", () => {
  using tmp = tempDir("clock_test_");
  const file = `${tmp.path}/clock`;
  const env = { AGENT_TEST_CLOCK: file };
  assert.equal(testNow({}), undefined);
  assert.equal(testNow(env, "file:///somewhere/dist/agent.js"), undefined);
  assert.equal(testNow(env, "https://jsr.io/@agent/hub/0.1.0/clock.ts"), undefined);
  const now = testNow(env)!;
  const before = Date.now();
  const machine = now();
  assert.ok(machine >= before && machine <= Date.now(), "no file yet: the machine's time");
  Deno.writeTextFileSync(file, "5000");
  assert.equal(now(), 5000);
  Deno.writeTextFileSync(file, "65000");
  assert.equal(now(), 65000, "read again at every call");
});
