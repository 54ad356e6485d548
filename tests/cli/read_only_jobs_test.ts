/**
 * `agent jobs list` and `agent jobs log` only read, so they work on a home that cannot
 * be written (issue 39 F9: they failed with the OS's "Read-only file system (os error
 * 30)"), with and without a job store. The home is bound read-only by bubblewrap, which
 * binds root too.
 */
import assert from "node:assert/strict";
import { agent, canMakeReadOnly, cleanup, initHome, tempHome } from "./_run.ts";

Deno.test({
  name: "agent jobs list and log read a read-only home, before and after a run",
  ignore: !canMakeReadOnly(),
  async fn() {
    const home = await initHome(tempHome());
    const add = await agent([
      "--home",
      home,
      "jobs",
      "add",
      "hi",
      "--schedule",
      "0 9 * * *",
      "--prompt",
      "Say hi",
    ]);
    assert.equal(add.code, 0, add.stderr);
    // No data folder yet: the listing must not try to make one.
    await Deno.remove(`${home}/data`, { recursive: true }).catch(() => {});
    const fresh = await agent(["--home", home, "jobs", "list"], { readOnly: [home] });
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.match(fresh.stdout, /^hi {2}0 9 \* \* \* \(Europe\/Istanbul\)$/m);
    assert.equal(fresh.stderr, "");
    const none = await agent(["--home", home, "jobs", "log"], { readOnly: [home] });
    assert.equal(none.code, 0, none.stderr);

    assert.equal((await agent(["--home", home, "jobs", "run", "hi"])).code, 0);
    const list = await agent(["--home", home, "jobs", "list"], { readOnly: [home] });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /last ok/);
    const log = await agent(["--home", home, "jobs", "log", "hi"], { readOnly: [home] });
    assert.equal(log.code, 0, log.stderr);
    assert.match(log.stdout, / hi {2}ok {2}\$0\.00/);
    assert.doesNotMatch(list.stderr + log.stderr, /os error|Read-only file system/);
    await cleanup();
  },
});
