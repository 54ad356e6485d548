/**
 * `agent net remove` while the other side's spine is down: the `contact_removed`
 * notice waits in the outbox like a message, is posted again once that spine is back
 * (two spines on workerd, the peer's restarted on its port with its state kept), and
 * arrives once. A re-add before it arrived voids it, so it never undoes the new request.
 *
 * Alice's runs go by a clock file (`AGENT_TEST_CLOCK`): the test moves it past the
 * outbox's first retry (5 s) instead of polling until the seconds have passed.
 */
import assert from "node:assert/strict";
import { agent } from "../cli/_run.ts";
import { startSpine } from "../spine/_harness.ts";
import { type TempDir, tempDir } from "../_temp_dir.ts";
import { freePort } from "../_port.ts";
import { initHomeAt } from "../_init_home.ts";
import { acceptedPair, netPollOnce } from "../_net_here.ts";

async function newHome(): Promise<TempDir> {
  const dir = tempDir("agent-removed-outbox-");
  await initHomeAt(dir.path);
  return dir;
}

/** Alice and Bob, accepted contacts of each other; Bob's spine can be stopped and restarted. */
async function pair() {
  const persist = await tempDir("agent-removed-outbox-spine-");
  const port = freePort();
  const [spineA, firstB, homeA, homeB] = await Promise.all([
    startSpine({ hubToken: "ta" }),
    startSpine({ hubToken: "tb", port, persistDir: persist.path }),
    newHome(),
    newHome(),
  ]);
  let spineB = firstB;
  // Alice's clock: the machine's until the test writes a time here.
  const clockA = `${persist.path}/clock-a`;
  const env = (url: string, token: string) => ({
    AGENT_SPINE_URL: url,
    AGENT_SPINE_TOKEN: token,
    AGENT_NET_ALLOW_INSECURE: "1",
  });
  const urlB = spineB.url;
  const envA = { ...env(spineA.url, "ta"), AGENT_TEST_CLOCK: clockA };
  const envB = env(urlB, "tb");
  const a = (...args: string[]) => agent(["--home", homeA.path, "net", ...args], { env: envA });
  const b = (...args: string[]) => agent(["--home", homeB.path, "net", ...args], { env: envB });
  // `agent net poll --once` in this process (the command's own calls, Alice's clock
  // included): the spawned command is ~0.8 CPU-seconds, and its sentence is not this
  // file's point (tests/hub/contact_life_test.ts reads it).
  const pollA = () => netPollOnce({ home: homeA.path, env: envA });
  const pollB = () => netPollOnce({ home: homeB.path, env: envB });
  const close = async () => {
    await spineA.stop();
    await spineB.stop().catch(() => {});
    await homeA[Symbol.asyncDispose]();
    await homeB[Symbol.asyncDispose]();
    await persist[Symbol.asyncDispose]();
  };
  try {
    // The handshake is not these tests' point: it runs in this process (tests/_net_here.ts).
    await acceptedPair(
      { home: homeA.path, env: envA, name: "Alice" },
      { home: homeB.path, env: envB, name: "Bob" },
    );
  } catch (error) {
    await close();
    throw error;
  }
  return {
    a,
    b,
    pollA,
    pollB,
    addressA: spineA.address,
    addressB: spineB.address,
    stopB: () => spineB.stop(),
    /** Moves Alice's clock `seconds` past the machine's. */
    aheadA: (seconds: number) => Deno.writeTextFile(clockA, String(Date.now() + seconds * 1000)),
    startB: async () => {
      spineB = await startSpine({ hubToken: "tb", port, persistDir: persist.path });
    },
    close,
  };
}

Deno.test({
  name:
    "agent net remove with the peer's spine down: the notice waits in the outbox and arrives once",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const p = await pair();
    try {
      await p.stopB();
      const removed = await p.a("remove", p.addressB);
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal(
        removed.stdout,
        `Forgot ${p.addressB} (its log and session stay); it does not answer now, so the outbox tells it later, for up to 24 hours (the hub, or \`agent net poll --once\`).\n`,
      );
      assert.match((await p.a("status")).stdout, /outbox: 1 waiting for delivery/);

      await p.startB();
      // The outbox's first retry is due 4 to 6 s after the failed post: 30 s on (a spine
      // takes envelopes up to 300 s either side of its time), Alice's next poll posts it.
      await p.aheadA(30);
      await p.pollA();
      assert.equal((await p.pollB()).handled, 1, "Bob got the removal notice");
      assert.equal(
        (await p.b("contacts")).stdout,
        `removed     ${p.addressA}  Alice\n  their side: removed you; \`agent net add ${p.addressA}\` sends a new request\n`,
      );
      assert.match((await p.a("status")).stdout, /outbox: 0 waiting for delivery/);

      // Once: another round posts nothing and Bob handles nothing.
      await p.pollA();
      assert.equal((await p.pollB()).handled, 0);
      const log = (await p.a("log")).stdout;
      assert.equal(log.split("\n").filter((l) => l.includes("contact_removed")).length, 1, log);
    } finally {
      await p.close();
    }
  },
});

Deno.test({
  name: "agent net add voids a removal notice still waiting in the outbox",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const p = await pair();
    try {
      await p.stopB();
      assert.equal((await p.a("remove", p.addressB)).code, 0);
      await p.startB();
      // Alice thinks better of it before the notice went out: a new request instead.
      const again = await p.a("add", p.addressB, "--note", "Sorry");
      assert.equal(again.code, 0, again.stderr);
      assert.match((await p.a("status")).stdout, /outbox: 0 waiting for delivery/);
      assert.equal((await p.pollB()).handled, 1);
      // Bob still has Alice as an accepted contact; the request met its answer at once.
      assert.ok((await p.b("contacts")).stdout.startsWith(`accepted    ${p.addressA}`));
    } finally {
      await p.close();
    }
  },
});
