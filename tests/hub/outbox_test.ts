/**
 * The outbox: a reply whose recipient's spine is down is kept and delivered once it is
 * back, exactly once and without asking the model again; `agent net send` reports a
 * hard refusal at once and keeps a transient failure for retry.
 */
import assert from "node:assert/strict";
import { connect, FAST, startAgent } from "./_agents.ts";
import { startSpine } from "../spine/_harness.ts";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";

Deno.test({
  name: "outbox: a reply to a spine that is down waits, then arrives once, the model asked once",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "outbox-spine-" });
    const port = freePort();
    let aliceSpine = await startSpine({ hubToken: "ta", port, persistDir: dir });
    const [alice, bob] = await Promise.all([
      startAgent("alice", {
        replies: ["[no reply]"],
        spine: aliceSpine,
        env: { AGENT_SPINE_TOKEN: "ta" },
      }),
      startAgent("bob", {
        replies: ["Pong.", "A second answer that must never be asked for."],
        timings: { ...FAST, outboxMs: 200 },
      }),
    ]);
    try {
      await connect(alice, bob);

      await aliceSpine.stop();
      await alice.node.send(bob.address, "Ping?");
      // The reply is kept before its first try; the try's error is written after it (a
      // busy machine's CI run read the row in between, its error still empty).
      await until(
        "bob's reply waits in his outbox, its first try failed",
        async () =>
          bob.service.status().outbox === 1 &&
          ((await bob.node.state.outbox())[0]?.last_error ?? "") !== "",
        { timeoutMs: 15_000 },
      );
      const [waiting] = await bob.node.state.outbox();
      assert.equal(waiting?.state, "pending");
      assert.match(waiting?.last_error ?? "", /Cannot deliver/);

      aliceSpine = await startSpine({ hubToken: "ta", port, persistDir: dir });
      await until(
        "alice gets the reply",
        async () =>
          (await alice.node.state.log()).some((e) => e.direction === "in" && e.text === "Pong."),
        { timeoutMs: 20_000 },
      );
      await until("bob's outbox is empty", () => bob.service.status().outbox === 0, {
        timeoutMs: 5_000,
      });
      const bobOut = (await bob.node.state.log()).filter((e) =>
        e.direction === "out" && e.kind === "message"
      );
      assert.deepEqual(bobOut.map((e) => e.text), ["Pong."]);
      await new Promise((r) => setTimeout(r, 500));
      const aliceIn = (await alice.node.state.log()).filter((e) =>
        e.direction === "in" && e.kind === "message"
      );
      assert.equal(aliceIn.length, 1);
    } finally {
      await alice.close();
      await bob.close();
      await aliceSpine.stop().catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});
