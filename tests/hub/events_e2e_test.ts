/**
 * The hub's event stream end to end: a real `agent hub run` process serves `GET
 * /events`; events written by the hub itself (a contact request it handles), by
 * another process while it runs (the file-watch path) and by a poll while it is down
 * (`agent net poll --once`'s calls, run in the test's process) all reach one SSE client,
 * each once, in order, across a restart.
 */
import assert from "node:assert/strict";
import { type OwnerEvent, subscribeHubEvents } from "@agent/hub";
import { RUN_FLAGS } from "../_agent_flags.ts";
import { cleanup, tempHome } from "../cli/_run.ts";
import { startSpine } from "../spine/_harness.ts";
import { spawnHubProcess, untilHub } from "../_hub_process.ts";
import { controlFetch } from "../_control.ts";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";
import { initHomeAt } from "../_init_home.ts";
import { netInit, netNode, netPollOnce, netPublished } from "../_net_here.ts";

const APPEND = new URL("./_append_event.ts", import.meta.url).pathname;

async function newHome(port = freePort()): Promise<string> {
  const home = await tempHome();
  await initHomeAt(home, { port });
  return home;
}

/** Appends an event from a separate process; returns its id and when it was written. */
async function appendFromOutside(
  netDir: string,
  event: object,
): Promise<{ id: string; at: number }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      ...RUN_FLAGS,
      APPEND,
      netDir,
      JSON.stringify(event),
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const [id, at] = new TextDecoder().decode(out.stdout).trim().split(" ");
  return { id: id!, at: Number(at) };
}

Deno.test("agent hub run: GET /events carries events from the hub, from another process and from a restart's gap to one client", async () => {
  const spines = await Promise.all(["ta", "tb", "tc"].map((hubToken) => startSpine({ hubToken })));
  const [spineA, spineB, spineC] = spines as [typeof spines[0], typeof spines[0], typeof spines[0]];
  const envOf = (url: string, token: string) => ({
    AGENT_SPINE_URL: url,
    AGENT_SPINE_TOKEN: token,
    AGENT_NET_ALLOW_INSECURE: "1",
  });
  const envA = envOf(spineA.url, "ta");
  const port = freePort();
  const homeA = await newHome(port);
  const homeB = await newHome();
  const homeC = await newHome();
  const netA = `${homeA}/data/net`;
  // Identities and cards are not this test's point: made in this process (tests/_net_here.ts).
  await Promise.all([
    netInit({ home: homeA, env: envA }, "Hub A"),
    netPublished({ home: homeB, env: envOf(spineB.url, "tb") }, "B"),
    netPublished({ home: homeC, env: envOf(spineC.url, "tc") }, "C"),
  ]);
  let hub = spawnHubProcess(homeA, { env: envA });
  const stop = new AbortController();
  const heard: OwnerEvent[] = [];
  const received = new Map<string, number>();
  let opens = 0;
  let listening: Promise<void> | undefined;
  try {
    await untilHub(port, (s) => s.net?.ready === true, "the hub's network runs");
    listening = subscribeHubEvents(port, {
      signal: stop.signal,
      tokenFile: `${homeA}/data/hub.token`,
      onEvent(event) {
        received.set(event.event_id, Date.now());
        heard.push(event);
      },
      onOpen: () => opens++,
      retryMs: 100,
      maxRetryMs: 500,
    });
    await until("the stream opens", () => opens === 1);

    // 1. Another process appends while the hub runs: the hub's watcher passes it on.
    const outside = await appendFromOutside(netA, {
      ts: Math.floor(Date.now() / 1000),
      type: "model.failover",
      role: "brain",
      stand_in: "fast",
      text: "written by another process",
    });
    await until("the other process's event", () => received.has(outside.id), { timeoutMs: 10_000 });
    const watchMs = received.get(outside.id)! - outside.at;
    assert.ok(watchMs < 1_000, `file-watch path took ${watchMs} ms`);

    // 2. The hub handles a stranger's contact request and publishes it on its bus.
    await (await netNode({ home: homeB, env: envOf(spineB.url, "tb") })).add(
      spineA.address,
      "from B",
    );
    await until("B's request", () => heard.some((e) => e.type === "net.contact_request"));

    // 3. The hub stops; `agent net poll --once` takes C's request meanwhile; the hub comes back.
    hub.kill("SIGTERM");
    assert.equal((await hub.status).code, 0);
    await (await netNode({ home: homeC, env: envOf(spineC.url, "tc") })).add(
      spineA.address,
      "from C",
    );
    // `agent net poll --once`'s own calls, in this process (the spawned command is ~0.8
    // CPU-seconds; the gap, not the command, is the point here).
    assert.equal((await netPollOnce({ home: homeA, env: envA })).handled, 1);
    assert.equal(heard.length, 2, "nothing arrives while the hub is down");
    hub = spawnHubProcess(homeA, { env: envA });
    await until("the request taken while the hub was down", () => heard.length === 3);
    assert.equal(opens, 2);

    const requests = heard.filter((e) => e.type === "net.contact_request");
    assert.deepEqual(
      requests.map((e) => e.type === "net.contact_request" && [e.address, e.text]),
      [[spineB.address, "from B"], [spineC.address, "from C"]],
    );
    assert.equal(heard[0]!.event_id, outside.id);
    // In order, each once, and exactly what the history holds.
    const file = (await Deno.readTextFile(`${netA}/events.jsonl`)).trim().split("\n")
      .map((l) => JSON.parse(l).event_id);
    assert.deepEqual(heard.map((e) => e.event_id), file);
    // The old route answers the same events.
    const old = await (await controlFetch(port, "/net/events?after=0")).json() as {
      events: OwnerEvent[];
    };
    assert.deepEqual(old.events.map((e) => e.event_id), file);
  } finally {
    stop.abort();
    await listening?.catch(() => {});
    try {
      hub.kill("SIGTERM");
    } catch { /* already gone */ }
    await hub.status;
    await Promise.all(spines.map((s) => s.stop()));
    await cleanup();
  }
});
