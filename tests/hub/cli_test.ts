import assert from "node:assert/strict";
import { agent } from "../cli/_run.ts";
import { startSpine } from "../spine/_harness.ts";
import { type TempDir, tempDir } from "../_temp_dir.ts";
import { controlFetch, controlJson } from "../_control.ts";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";
import { spawnHubProcess, untilHub } from "../_hub_process.ts";
import { initHomeAt } from "../_init_home.ts";
import { netInit, netNode, netPollOnce, netPublished } from "../_net_here.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** A home as `agent init --yes` makes it, on `port`; an `await using` block removes it. */
async function newHome(port = freePort()): Promise<TempDir> {
  const dir = tempDir("agent-hub-cli-");
  await initHomeAt(dir.path, { port });
  return dir;
}

function spawnHub(home: string, env: Record<string, string> = {}): Deno.ChildProcess {
  return spawnHubProcess(home, { env, piped: true });
}

async function running(home: string): Promise<{
  running: boolean;
  pid: number | null;
  last_crash: { pid: number; reason: string } | null;
}> {
  const r = await agent(["--home", home, "hub", "status", "--json"]);
  assert.deepEqual(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

Deno.test("agent hub run/status/stop: lock, control API, clean stop, already running", async () => {
  const port = freePort();
  await using homeDir = await newHome(port);
  const home = homeDir.path;
  const hub = spawnHub(home);
  try {
    // Its control API answers once the lock is taken; `hub status` below says "running".
    await untilHub(port, () => true, "the hub runs");
    const second = await agent(["--home", home, "hub", "run"]);
    assert.deepEqual(second.code, 1);
    assert.ok(
      second.stderr.startsWith(`hub is already running (pid ${hub.pid})...`),
      second.stderr,
    );
    // deno-lint-ignore no-explicit-any
    const status: any = await controlJson(port, "/status");
    assert.ok("brain" in status.spend.roles);
    assert.deepEqual([status.net.configured, status.net.state], [false, "idle"]);
    const text = await agent(["--home", home, "hub", "status"]);
    assert.ok(text.stdout.startsWith(`hub: running (pid ${hub.pid}), up `), text.stdout);
    const doctor = await agent(["--home", home, "doctor"]);
    assert.ok(doctor.stdout.includes(`ok hub: running (pid ${hub.pid}) on 127.0.0.1:${port}`));
    const stop = await agent(["--home", home, "hub", "stop"]);
    assert.deepEqual(stop.code, 0);
    assert.deepEqual(stop.stdout, `Stop signal sent (pid ${hub.pid}).\nhub stopped.\n`);
    assert.deepEqual((await hub.status).code, 0);
    assert.deepEqual((await running(home)).running, false);
  } finally {
    try {
      hub.kill("SIGKILL");
    } catch { /* gone */ }
    await hub.stdout.cancel().catch(() => {});
    await hub.stderr.cancel().catch(() => {});
  }
});

Deno.test("agent hub: Ctrl-C stops cleanly; a killed hub is recorded as the last crash", async () => {
  const port = freePort();
  await using homeDir = await newHome(port);
  const home = homeDir.path;
  let hub = spawnHub(home);
  await untilHub(port, () => true, "the hub runs");
  hub.kill("SIGINT");
  assert.deepEqual((await hub.status).code, 0);
  await hub.stdout.cancel().catch(() => {});
  await hub.stderr.cancel().catch(() => {});
  hub = spawnHub(home);
  await untilHub(port, () => true, "the hub runs again");
  const killed = hub.pid;
  hub.kill("SIGKILL");
  await hub.status;
  await hub.stdout.cancel().catch(() => {});
  await hub.stderr.cancel().catch(() => {});
  hub = spawnHub(home);
  try {
    await untilHub(port, () => true, "the hub runs a third time");
    const report = await running(home);
    assert.deepEqual([report.running, report.pid], [true, hub.pid]);
    assert.deepEqual(report.last_crash?.pid, killed);
    assert.ok(report.last_crash?.reason.includes("without a clean shutdown"));
  } finally {
    await agent(["--home", home, "hub", "stop"]);
    await hub.status;
    await hub.stdout.cancel().catch(() => {});
    await hub.stderr.cancel().catch(() => {});
  }
});

Deno.test("agent hub stop: a hub that ignores SIGTERM is reported after the timeout", async () => {
  await using homeDir = await newHome();
  const home = homeDir.path;
  // A stand-in "hub" that ignores SIGTERM holds the lock.
  const stubborn = new Deno.Command("sh", {
    args: ["-c", "trap '' TERM; sleep 30"],
  }).spawn();
  try {
    await Deno.mkdir(`${home}/data`, { recursive: true });
    await Deno.writeTextFile(
      `${home}/data/hub.lock`,
      JSON.stringify({ pid: stubborn.pid, started_at: Date.now() }),
    );
    const r = await agent(["--home", home, "hub", "stop", "--timeout", "0.5"]);
    assert.deepEqual(r.code, 1);
    assert.deepEqual(r.stdout, `Stop signal sent (pid ${stubborn.pid}).\n`);
    assert.deepEqual(r.stderr, "hub did not stop within 0.5 s.\n");
    const bad = await agent(["--home", home, "hub", "stop", "--timeout", "soon"]);
    assert.deepEqual(bad.code, 2);
  } finally {
    stubborn.kill("SIGKILL");
    await stubborn.status;
  }
});

Deno.test("agent hub systemd-unit and install on Linux", async () => {
  await using homeDir = await newHome();
  const home = homeDir.path;
  const unit = await agent([
    "--home",
    home,
    "hub",
    "systemd-unit",
    "--python",
    "/opt/deno/bin/deno",
  ]);
  assert.deepEqual(unit.code, 0);
  assert.ok(unit.stdout.includes(`ExecStart=/opt/deno/bin/deno run `));
  assert.ok(unit.stdout.includes(`${ROOT}cli/main.ts --home ${home} hub run`));
  // The checkout's flags and config: the unit runs outside the checkout.
  assert.ok(unit.stdout.includes(" --unstable-lazy-dynamic-imports "), unit.stdout);
  assert.ok(unit.stdout.includes(` --config ${ROOT}deno.json ${ROOT}cli/main.ts`), unit.stdout);
  if (Deno.build.os !== "darwin") {
    const install = await agent(["--home", home, "hub", "install"]);
    assert.deepEqual(install.code, 1);
    assert.ok(install.stderr.includes("is for macOS (launchd)"));
  }
});

Deno.test("agent net: init, publish, add, poll --once, accept, send, log between two homes", async () => {
  const tokenA = "token-a";
  const tokenB = "token-b";
  const [spineA, spineB] = await Promise.all([
    startSpine({ hubToken: tokenA }),
    startSpine({ hubToken: tokenB }),
  ]);
  await using homeADir = await newHome();
  const homeA = homeADir.path;
  await using homeBDir = await newHome();
  const homeB = homeBDir.path;
  const envA = {
    AGENT_SPINE_URL: spineA.url,
    AGENT_SPINE_TOKEN: tokenA,
    AGENT_NET_ALLOW_INSECURE: "1",
  };
  const envB = {
    AGENT_SPINE_URL: spineB.url,
    AGENT_SPINE_TOKEN: tokenB,
    AGENT_NET_ALLOW_INSECURE: "1",
  };
  const a = (...args: string[]) => agent(["--home", homeA, "net", ...args], { env: envA });
  const b = (...args: string[]) => agent(["--home", homeB, "net", ...args], { env: envB });
  try {
    assert.deepEqual((await a("init", "--name", "Alice")).code, 0);
    const again = await a("init");
    assert.ok(again.stdout.startsWith("The network identity already exists"), again.stdout);
    assert.deepEqual((await b("init")).code, 0);
    assert.deepEqual((await b("name", "Bob", "the", "Builder")).code, 0);
    assert.deepEqual((await a("publish")).code, 0);
    await (await netNode({ home: homeB, env: envB })).publish(); // B's, as the command does
    const card = JSON.parse((await b("card")).stdout);
    assert.deepEqual([card.name, card.address], ["Bob the Builder", spineB.address]);
    const status = await a("status");
    assert.ok(status.stdout.includes("card: published, matches (Alice)"), status.stdout);

    const bad = await a("add", "Not An Address");
    assert.deepEqual(bad.code, 2);
    const add = await a("add", spineB.address, "--note", "Hi Bob");
    assert.deepEqual(add.code, 0, add.stderr);
    assert.deepEqual((await b("poll", "--once")).stdout, "Handled 1 envelope(s), dropped 0.\n");
    const contacts = await b("contacts");
    assert.ok(contacts.stdout.includes(`pending_in  ${spineA.address}  Alice · Hi Bob`));
    assert.deepEqual((await b("accept", spineA.address)).code, 0);
    // The polls whose output is not checked run in this process, with the command's own
    // calls (tests/_net_here.ts): `poll --once` is checked above, and each run of it
    // loads the whole hub (~0.8 s of processor time).
    await netPollOnce({ home: homeA, env: envA });
    const notYet = await b("send", "127.0.0.9:1", "hello");
    assert.deepEqual(notYet.code, 1);
    const send = await a("send", spineB.address, "How", "are", "you?");
    assert.deepEqual(send.code, 0, send.stderr);
    await netPollOnce({ home: homeB, env: envB }); // Bob's fake model answers "Okay."
    await netPollOnce({ home: homeA, env: envA });
    const log = await a("log");
    const lines = log.stdout.trim().split("\n").map((l) => l.slice(17));
    assert.deepEqual(lines, [
      `out ${spineB.address} contact_request: Hi Bob`,
      `in  ${spineB.address} contact_accept`,
      `out ${spineB.address} message: How are you?`,
      // Bob's reply asks nothing: Alice's agent does not answer it (the exchange ends).
      `in  ${spineB.address} message: Okay.`,
    ]);
    assert.deepEqual((await a("log", "-n", "1")).stdout.trim().slice(17), lines[3]);
    assert.deepEqual((await a("block", spineB.address)).code, 0);
    assert.deepEqual((await a("remove", spineB.address)).code, 0);
    assert.deepEqual((await a("remove", spineB.address)).code, 1);
  } finally {
    await spineA.stop();
    await spineB.stop();
  }
});

Deno.test("agent hub run answers the network: a running hub handles requests and messages", async () => {
  const [spineA, spineB] = await Promise.all([
    startSpine({ hubToken: "ta" }),
    startSpine({ hubToken: "tb" }),
  ]);
  const port = freePort();
  await using homeADir = await newHome(port);
  const homeA = homeADir.path;
  await using homeBDir = await newHome();
  const homeB = homeBDir.path;
  const envA = {
    AGENT_SPINE_URL: spineA.url,
    AGENT_SPINE_TOKEN: "ta",
    AGENT_NET_ALLOW_INSECURE: "1",
  };
  const envB = {
    AGENT_SPINE_URL: spineB.url,
    AGENT_SPINE_TOKEN: "tb",
    AGENT_NET_ALLOW_INSECURE: "1",
  };
  const a = (...args: string[]) => agent(["--home", homeA, "net", ...args], { env: envA });
  const b = (...args: string[]) => agent(["--home", homeB, "net", ...args], { env: envB });
  // The identities and B's card are not this test's point (the test above runs those
  // commands): made in this process (tests/_net_here.ts).
  await Promise.all([
    netInit({ home: homeA, env: envA }, "Hub A"),
    netPublished({ home: homeB, env: envB }, "Cli B"),
  ]);
  const hub = spawnHub(homeA, envA);
  try {
    // deno-lint-ignore no-explicit-any
    const status = async (): Promise<any> =>
      await controlJson(port, "/status").catch(() => undefined);
    await until("the hub's network runs", async () => {
      try {
        return (await status())?.net?.ready === true;
      } catch {
        return false;
      }
    });
    // The hub published its card at start.
    assert.deepEqual(JSON.parse((await a("card")).stdout).name, "Hub A");
    assert.deepEqual((await b("add", spineA.address, "--note", "from the CLI")).code, 0);
    // Watched through the control API (a fetch), not by running `agent net contacts`
    // (a Deno process, about a second of processor time) again and again.
    const events = await until("the hub takes the request", async () => {
      const got = await (await controlFetch(port, "/net/events?after=0"))
        .json() as { events: { type: string; address: string; text: string }[] };
      return got.events.length > 0 && got;
    });
    await until(
      "`agent net contacts` lists the request",
      async () => (await a("contacts")).stdout.includes(`pending_in  ${spineB.address}`),
    );
    assert.deepEqual(
      events.events.map((e) => [
        e.type,
        e.address,
        e.text,
      ]),
      [["net.contact_request", spineB.address, "from the CLI"]],
    );
    const refused = await a("poll", "--once");
    assert.deepEqual(refused.code, 1);
    assert.ok(refused.stderr.startsWith(`A hub is running (pid ${hub.pid})`), refused.stderr);
    assert.deepEqual((await a("accept", spineB.address)).code, 0);
    // B's polls in this process, with the command's own calls (tests/_net_here.ts): the
    // point is the hub's answer, and each `agent net poll --once` loads the whole hub.
    await netPollOnce({ home: homeB, env: envB });
    assert.deepEqual((await b("send", spineA.address, "Anyone home?")).code, 0);
    await until(
      "the hub answers",
      async () => (await netPollOnce({ home: homeB, env: envB })).handled > 0,
      { intervalMs: 200 },
    );
    assert.ok((await b("log")).stdout.includes(`in  ${spineA.address} message: Okay.`));
    const net = (await status()).net;
    assert.deepEqual([net.configured, net.link, net.state], [true, "websocket", "polling"]);
    assert.ok(net.doorbell.rings >= 2 && net.doorbell.connects === 1, JSON.stringify(net));
    assert.deepEqual(net.address, spineA.address);
  } finally {
    hub.kill("SIGTERM");
    await hub.status;
    await hub.stdout.cancel().catch(() => {});
    await hub.stderr.cancel().catch(() => {});
    await spineA.stop();
    await spineB.stop();
  }
});
