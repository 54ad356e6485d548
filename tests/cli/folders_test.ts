/** The home, data, logs and network folders are created 0700; `agent doctor` warns when wider. */
import assert from "node:assert/strict";
import { agent, cleanup, tempHome } from "./_run.ts";

Deno.test("folders are created 0700, and doctor warns about a wider one", async () => {
  try {
    const home = `${await tempHome()}/home`;
    assert.equal((await agent(["--home", home, "init", "--yes", "--provider", "fake"])).code, 0);
    assert.equal((await agent(["--home", home, "chat"], { stdin: "hi\n" })).code, 0);
    assert.equal((await agent(["--home", home, "net", "init"])).code, 0);
    // The log (and its folder) appears with the first line written.
    assert.equal((await agent(["--home", home, "doctor"])).code, 0);
    for (const dir of [home, `${home}/data`, `${home}/data/logs`, `${home}/data/net`]) {
      assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700, dir);
    }
    let r = await agent(["--home", home, "doctor"]);
    assert.ok(!r.stdout.includes("folders:"), r.stdout);
    await Deno.chmod(`${home}/data`, 0o755);
    r = await agent(["--home", home, "doctor"]);
    assert.match(
      r.stdout,
      new RegExp(
        `^warn folders: ${home}/data has mode 0755; other users can look in: run \`chmod 700 ${home}/data\`$`,
        "m",
      ),
    );
  } finally {
    await cleanup();
  }
});
