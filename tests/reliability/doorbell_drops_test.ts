/**
 * Doorbell drops: the WebSocket doorbell between a hub and its spine cut at least 100
 * times while two peers send it 100 messages. Figure: envelopes handled against sent
 * (none missed, none twice), the cuts, and how long the last envelope took after the
 * last was sent.
 */
import assert from "node:assert/strict";
import { connect, logReader, startAgent, type TestAgent } from "../hub/_agents.ts";
import { startSpineProxy } from "../hub/_spine_proxy.ts";
import { startSpine } from "../spine/_harness.ts";
import { until } from "../_poll.ts";

const CUTS = 100;
const PER_PEER = 50;

Deno.test({
  name: "doorbell drops: cut 100 times during traffic, no envelope is missed",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const token = `tok-${crypto.randomUUID()}`;
    // The per-sender inbox limit (30 a minute) would hold the senders back, not the hub.
    const spine = await startSpine({ hubToken: token, rateLimits: false });
    const proxy = startSpineProxy(spine.url, "pass");
    const bob = await startAgent("bob", {
      spine,
      link: "websocket",
      replies: ["[no reply]"],
      timings: { backoffBaseMs: 10, backoffMaxMs: 60 },
      env: { AGENT_SPINE_TOKEN: token, AGENT_SPINE_URL: proxy.url },
    });
    const peers: TestAgent[] = [];
    try {
      for (const name of ["alice", "carol"]) {
        const peer = await startAgent(name, { replies: ["[no reply]"] });
        peers.push(peer);
        await connect(peer, bob);
      }
      const before = bob.handled.length;
      const sent: string[] = [];
      let sending = true;
      let cuts = 0;
      let cutsInTraffic = 0;
      let lastSendAt = 0;
      const traffic = (async () => {
        for (let i = 0; i < PER_PEER; i++) {
          for (const peer of peers) {
            sent.push((await peer.node.send(bob.address, `Message ${i} from ${peer.name}`)).id);
            lastSendAt = performance.now();
          }
          // Spread over the cutting: at least two cuts fall between two rounds.
          const goal = (i + 1) * Math.ceil(CUTS / PER_PEER) + 1;
          await until("two more cuts", () => cuts >= goal, { timeoutMs: 10_000 });
        }
        sending = false;
      })();
      // Watched while the cutting goes on: when the last envelope was handled (the log
      // parsed again only once its file changed).
      const bobLog = logReader(bob);
      const handledAt = traffic.then(async () => {
        await until("every envelope handled", async () => {
          const logged = new Set(
            (await bobLog()).filter((e) => e.direction === "in" && e.kind === "message")
              .map((e) => e.id),
          );
          return sent.every((id) => logged.has(id));
        });
        return performance.now();
      });
      const started = performance.now();
      while (sending || cutsInTraffic < CUTS && cuts < CUTS) {
        await until("a doorbell to cut", () => proxy.open() > 0, { timeoutMs: 10_000 });
        await new Promise((r) => setTimeout(r, Math.random() * 30));
        cuts += proxy.cut();
        if (sending) cutsInTraffic = cuts;
      }
      await traffic;
      const cutsDone = performance.now();
      const tail = await handledAt - lastSendAt;
      const messages = (await bob.node.state.log()).filter((e) =>
        e.direction === "in" && e.kind === "message"
      );
      assert.equal(messages.length, sent.length, "each envelope logged once");
      assert.deepEqual(new Set(messages.map((m) => m.id)), new Set(sent));
      const handledTwice = bob.handled.slice(before).filter((h) =>
        h.result.outcome === "dropped" && h.result.reason.startsWith("already handled")
      ).length;
      assert.ok(cutsInTraffic >= CUTS, `${cutsInTraffic} cuts while sending`);
      console.log(
        `doorbell drops: ${cutsInTraffic} cuts while ${sent.length} envelopes were sent ` +
          `(${cuts} in ${
            ((cutsDone - started) / 1000).toFixed(1)
          } s in all); handled ${messages.length}/${sent.length}, missed 0; ` +
          `${handledTwice} fetched again after a cut and dropped as already handled; ` +
          `all handled ${tail.toFixed(0)} ms after the last send (checked every 20 ms)`,
      );
    } finally {
      for (const peer of peers) await peer.close();
      await bob.close();
      await proxy.close();
      await spine.stop();
    }
  },
});
