/**
 * A killed hub is not counted as live: killed with SIGKILL under a parent that does not
 * reap it at once (here `sleep`, which `sh` became with `exec`), the hub is a zombie
 * that still takes signals; `agent hub status` must say it is not running.
 */
import assert from "node:assert/strict";
import { RUN_FLAGS } from "../_agent_flags.ts";
import { agent } from "../cli/_run.ts";
import { tempDir } from "../_temp_dir.ts";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";
import { initHomeAt } from "../_init_home.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

async function status(home: string): Promise<{ running: boolean; pid: number | null }> {
  const r = await agent(["--home", home, "hub", "status", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

Deno.test({
  name: "agent hub status: a killed hub its parent has not reaped yet is not running",
  sanitizeResources: false,
  async fn() {
    await using dir = await tempDir("agent-killed-hub-");
    const home = dir.path;
    await initHomeAt(home);
    const toml = await Deno.readTextFile(`${home}/agent.toml`);
    await Deno.writeTextFile(
      `${home}/agent.toml`,
      toml.replace(/^port = \d+$/m, `port = ${freePort()}`),
    );
    const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
    const hubCommand = [Deno.execPath(), "run", "--quiet", ...RUN_FLAGS, `${ROOT}cli/main.ts`]
      .concat(["--home", home, "hub", "run"]).map(quote).join(" ");
    // The hub's parent becomes `sleep`, which never reaps it.
    const parent = new Deno.Command("sh", {
      args: ["-c", `${hubCommand} >/dev/null 2>&1 & echo $!; exec sleep 120`],
      stdout: "piped",
      stderr: "null",
      env: { NO_COLOR: "1" },
    }).spawn();
    const reader = parent.stdout.getReader();
    try {
      const { value } = await reader.read();
      const pid = Number(new TextDecoder().decode(value).trim());
      assert.ok(pid > 0);
      await until("the hub to start", async () => (await status(home)).running);
      Deno.kill(pid, "SIGKILL");
      await new Promise((r) => setTimeout(r, 100));
      // Still a process id that takes signals (a zombie), with a fresh heartbeat.
      Deno.kill(pid, "SIGCONT");
      assert.equal((await status(home)).running, false);
    } finally {
      reader.releaseLock();
      await parent.stdout.cancel().catch(() => {});
      parent.kill("SIGKILL");
      await parent.status;
    }
  },
});
