/**
 * A lock whose pid belongs to another program (a reused pid after a crash or a reboot)
 * is stale: `hub status` says not running, `hub stop` never signals that process, and
 * `hub run` takes the lock over with a log line.
 */
import assert from "node:assert/strict";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { spawnHubProcess } from "../_hub_process.ts";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";
import { initHomeAt } from "../_init_home.ts";

Deno.test({
  name: "a stale lock naming a live stranger process is taken over, and hub stop never signals it",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const home = await tempHome();
    await initHomeAt(home);
    const port = freePort();
    const toml = await Deno.readTextFile(`${home}/agent.toml`);
    await Deno.writeTextFile(`${home}/agent.toml`, toml.replace(/^port = \d+$/m, `port = ${port}`));
    const stranger = new Deno.Command("sleep", { args: ["300"] }).spawn();
    let hub: Deno.ChildProcess | undefined;
    try {
      await Deno.mkdir(`${home}/data`, { recursive: true });
      await Deno.writeTextFile(
        `${home}/data/hub.lock`,
        JSON.stringify({ pid: stranger.pid, started_at: 1_700_000_000_000 }) + "\n",
      );
      const status = await agent(["--home", home, "hub", "status", "--json"]);
      assert.equal(JSON.parse(status.stdout).running, false);
      const stop = await agent(["--home", home, "hub", "stop"]);
      assert.equal(stop.code, 0);
      assert.equal(stop.stdout.trim(), "hub is not running.");
      // The stranger is untouched.
      Deno.kill(stranger.pid, "SIGCONT");

      hub = spawnHubProcess(home);
      await until("the hub took the lock", async () => {
        try {
          const lock = JSON.parse(await Deno.readTextFile(`${home}/data/hub.lock`));
          return lock.pid === hub!.pid;
        } catch {
          return false;
        }
      });
      // The takeover's log line follows the lock by a moment.
      await until("the takeover is logged", async () => {
        const log = await Deno.readTextFile(`${home}/data/logs/agent.log`).catch(() => "");
        return new RegExp(`WARNING .*${stranger.pid}`).test(log);
      }, { timeoutMs: 10_000 });
    } finally {
      hub?.kill("SIGTERM");
      await hub?.status;
      stranger.kill("SIGKILL");
      await stranger.status;
      await cleanup();
    }
  },
});
