import assert from "node:assert/strict";
import { startAgent } from "./_agents.ts";
import { until } from "../_poll.ts";

Deno.test("two hubs: request, accept, message, auto-reply and log over their spines", async () => {
  const [alice, bob] = await Promise.all([
    startAgent("alice", { replies: ["[no reply]"] }),
    startAgent("bob", { replies: ["Hi Alice, Bob here."] }),
  ]);
  try {
    await alice.node.add(bob.address, "Hello from Alice");
    await until(
      "bob sees the request",
      async () => (await bob.node.state.contact(alice.address))?.state === "pending_in",
    );
    const pending = await bob.node.state.contact(alice.address);
    assert.deepEqual(pending?.name, "alice");
    assert.deepEqual(pending?.note, "Hello from Alice");
    assert.deepEqual((await alice.node.state.contact(bob.address))?.state, "pending_out");

    await bob.node.accept(alice.address);
    await until(
      "alice sees the accept",
      async () => (await alice.node.state.contact(bob.address))?.state === "accepted",
    );

    await alice.node.send(bob.address, "How are you?");
    // Bob answers; Alice's model says [no reply], so the exchange ends there.
    await until(
      "alice gets bob's reply",
      async () =>
        (await alice.node.state.log()).some((e) =>
          e.direction === "in" && e.kind === "message" && e.text === "Hi Alice, Bob here."
        ),
    );
    // Bob logs his reply once it is sent: Alice may hold it a moment before.
    const bobLog = await until("bob logs his reply", async () => {
      const log = await bob.node.state.log();
      return log.length >= 4 && log;
    });
    const kinds = bobLog.map((e) => `${e.direction} ${e.kind}`);
    assert.deepEqual(kinds, [
      "in contact_request",
      "out contact_accept",
      "in message",
      "out message",
    ]);
    const incoming = bobLog[2]!;
    const reply = bobLog[3]!;
    assert.deepEqual(reply.thread, incoming.thread);
    await new Promise((r) => setTimeout(r, 300));
    const aliceLog = await alice.node.state.log();
    assert.deepEqual(
      aliceLog.filter((e) => e.direction === "out" && e.kind === "message").length,
      1,
    );
    const status = alice.service.status();
    assert.deepEqual(status.state, "polling");
    assert.deepEqual(status.link, "websocket");
    assert.ok(status.doorbell.rings >= 1);
  } finally {
    await alice.close();
    await bob.close();
  }
});
