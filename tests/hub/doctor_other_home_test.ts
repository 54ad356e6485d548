/** `agent doctor` says `ok hub` only for this home's hub, not another home's on the same port. */
import assert from "node:assert/strict";
import { AGENT_FLAGS } from "../_agent_flags.ts";
import { agent, cleanup, tempDir } from "../cli/_run.ts";
import { freePort } from "../spine/_harness.ts";
import { until } from "./_agents.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

async function home(port: number): Promise<string> {
  const dir = await tempDir();
  assert.equal((await agent(["--home", dir, "init", "--yes", "--provider", "fake"])).code, 0);
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
    const hub = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...AGENT_FLAGS, `${ROOT}cli/main.ts`, "--home", a, "hub", "run"],
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      await until("the hub answers", async () => {
        try {
          const health = await (await fetch(`http://127.0.0.1:${port}/health`)).json();
          return (health as { ok?: boolean }).ok === true;
        } catch {
          return false;
        }
      }, 30_000);
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
