/** `agent doctor` says `ok hub` only for this home's hub, not another home's on the same port. */
import assert from "node:assert/strict";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { spawnHubProcess, untilHub } from "../_hub_process.ts";
import { freePort } from "../_port.ts";
import { initHomeAt } from "../_init_home.ts";

async function home(port: number): Promise<string> {
  const dir = await tempHome();
  await initHomeAt(dir);
  const toml = await Deno.readTextFile(`${dir}/agent.toml`);
  await Deno.writeTextFile(`${dir}/agent.toml`, toml.replace(/^port = \d+$/m, `port = ${port}`));
  return dir;
}

Deno.test({
  name: "agent doctor: another home's hub on this home's port is a warning, not ok",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const port = freePort();
    const [a, b] = [await home(port), await home(port)];
    const hub = spawnHubProcess(a);
    try {
      await untilHub(port);
      const mine = await agent(["--home", a, "doctor"]);
      assert.match(
        mine.stdout,
        new RegExp(`^ok hub: running \\(pid ${hub.pid}\\) on 127\\.0\\.0\\.1:${port}$`, "m"),
      );
      const other = await agent(["--home", b, "doctor"]);
      assert.match(
        other.stdout,
        new RegExp(
          `^warn hub: the hub on 127\\.0\\.0\\.1:${port} \\(pid ${hub.pid}\\) serves another home \\(${a}/data\\)`,
          "m",
        ),
      );
    } finally {
      hub.kill("SIGTERM");
      await hub.status;
      await cleanup();
    }
  },
});
