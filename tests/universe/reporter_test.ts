/**
 * The hub's universe reporter: a running hub reports at start, shows `net.universe` in
 * `/status`, joins again when the universe forgot it, and a universe that does not
 * answer is a warning there, never a crash.
 */
import assert from "node:assert/strict";
import { cleanup, tempHome } from "../cli/_run.ts";
import { fileSpines } from "../spine/_harness.ts";
import { spawnHubProcess, untilHub } from "../_hub_process.ts";
import { snapshot, startUniverse } from "./_harness.ts";
import { freePort } from "../_port.ts";
import { initHomeAt } from "../_init_home.ts";
import { netInit, netUniverseJoin } from "../_net_here.ts";

// One spine for both tests: each hub is its own home and identity, its card published
// over the last one's, and neither reads what the other left in the mailbox.
const spines = fileSpines();

Deno.test({
  name: "the hub reports at start, shows net.universe in /status, and joins again when forgotten",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const universe = await startUniverse();
    const spine = await spines({ hubToken: "tk" });
    const port = freePort();
    const home = await tempHome();
    let hub: Deno.ChildProcess | undefined;
    try {
      await initHomeAt(home);
      const toml = (await Deno.readTextFile(`${home}/agent.toml`))
        .replace(/^universe = ""$/m, `universe = "${universe.host}"`)
        .replace(/^port = \d+$/m, `port = ${port}`);
      await Deno.writeTextFile(`${home}/agent.toml`, toml);
      await Deno.writeTextFile(
        `${home}/.env`,
        `AGENT_SPINE_URL=${spine.url}\nAGENT_SPINE_TOKEN=tk\nAGENT_NET_ALLOW_INSECURE=1\n`,
        { mode: 0o600 },
      );
      // `agent net init --name Hubby` and `agent net universe join`, in this process (the
      // hub's report is the point; the commands are tested in e2e_test.ts and culprits_test.ts).
      await netInit(home, "Hubby");
      await netUniverseJoin(home);
      assert.deepEqual((await snapshot(universe)).taus.map((t: { name: string }) => t.name), [
        "Hubby",
      ]);
      // The universe forgets the agent (30 days unseen, as far as the cron can tell).
      await universe.cron(Date.now() + 31 * 86_400_000);
      assert.equal((await snapshot(universe)).taus.length, 0);
      hub = spawnHubProcess(home);
      const status = await untilHub(
        port,
        (s) => s.net?.universe?.last_result === "ok",
        "the hub's first report",
      );
      const block = status.net.universe;
      assert.equal(block.setting, universe.host);
      assert.equal(block.joined, true);
      assert.equal(block.visible_links, 0);
      assert.equal(block.last_error, null);
      assert.match(block.last_report_at, /^\d{4}-/);
      assert.match(block.next_report_at, /^\d{4}-/);
      // Joined again by the report's not_joined.
      assert.deepEqual((await snapshot(universe)).taus.map((t: { name: string }) => t.name), [
        "Hubby",
      ]);
    } finally {
      hub?.kill("SIGTERM");
      await hub?.status;
      await universe.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name:
    "a universe that does not answer is a warning under net.universe, and the hub keeps running",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const spine = await spines({ hubToken: "tk" });
    const port = freePort();
    const home = await tempHome();
    let hub: Deno.ChildProcess | undefined;
    try {
      await initHomeAt(home);
      const toml = (await Deno.readTextFile(`${home}/agent.toml`))
        .replace(/^universe = ""$/m, `universe = "127.0.0.1:${freePort()}"`)
        .replace(/^port = \d+$/m, `port = ${port}`);
      await Deno.writeTextFile(`${home}/agent.toml`, toml);
      await Deno.writeTextFile(
        `${home}/.env`,
        `AGENT_SPINE_URL=${spine.url}\nAGENT_SPINE_TOKEN=tk\nAGENT_NET_ALLOW_INSECURE=1\n`,
        { mode: 0o600 },
      );
      await netInit(home, "Lonely");
      const profile = `${home}/data/net/profile.json`;
      const p = JSON.parse(await Deno.readTextFile(profile));
      await Deno.writeTextFile(profile, JSON.stringify({ ...p, universe_join: true }));
      hub = spawnHubProcess(home);
      const status = await untilHub(
        port,
        (s) => s.net?.universe?.last_result === "unreachable",
        "the failed report",
      );
      assert.match(status.net.universe.last_error, /does not answer/);
      assert.equal(status.ok, true);
    } finally {
      hub?.kill("SIGTERM");
      await hub?.status;
      await cleanup();
    }
  },
});
