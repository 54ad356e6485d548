/**
 * Hostile peers: spines that answer slowly, hugely, with redirects or with garbage.
 * The hub's sends to them end (in the outbox, or refused) without hanging or growing,
 * its card fetches stay bounded, and it keeps serving a good contact meanwhile.
 */
import assert from "node:assert/strict";
import { generateIdentity } from "@agent/net";
import { connect, startAgent } from "../hub/_agents.ts";
import { until } from "../_poll.ts";

type Mode = "slow" | "huge" | "redirect" | "garbage";

function hostile(mode: Mode): { address: string; stop(): Promise<void> } {
  const controller = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    async () => {
      if (mode === "slow") {
        // Holds the request open until the server stops; the client gives up long before.
        await new Promise((r) => controller.signal.addEventListener("abort", r));
        return new Response("late");
      }
      if (mode === "redirect") {
        return new Response(null, { status: 307, headers: { location: "http://127.0.0.1:1/x" } });
      }
      if (mode === "garbage") return new Response("\u0000<html>not json", { status: 202 });
      const chunk = new TextEncoder().encode("x".repeat(65_536));
      return new Response(new ReadableStream({ pull: (c) => c.enqueue(chunk) }), { status: 200 });
    },
  );
  return {
    address: `127.0.0.1:${server.addr.port}`,
    async stop() {
      controller.abort();
      await server.finished;
    },
  };
}

Deno.test({
  name: "hostile peers: slow, huge, redirecting and garbage spines neither hang nor bloat the hub",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const peers = (["slow", "huge", "redirect", "garbage"] as const).map(hostile);
    const alice = await startAgent("alice", { replies: ["[no reply]"] });
    const bob = await startAgent("bob", { replies: ["Still here."] });
    try {
      await connect(alice, bob);
      // The hostile peers as accepted contacts of alice's.
      for (const p of peers) {
        const keys = await generateIdentity();
        await alice.node.state.saveContact({
          address: p.address,
          name: "Hostile",
          state: "accepted",
          sign_key: keys.signKey,
          box_key: keys.boxKey,
          note: "",
          created_at: 1,
          updated_at: 1,
          accepted_at: 1,
        });
      }
      const rssBefore = Deno.memoryUsage().rss;
      const started = performance.now();
      const hostileSends = peers.map((p) =>
        alice.node.send(p.address, "hello").then(
          (r) => r.delivery,
          (e) => `refused: ${(e as Error).message}`,
        )
      );
      // Meanwhile a good contact is served at once.
      await alice.node.send(bob.address, "Are you there?");
      await until(
        "bob's answer",
        async () =>
          (await alice.node.state.log()).some((e) =>
            e.direction === "in" && e.text === "Still here."
          ),
        { timeoutMs: 10_000 },
      );
      const goodMs = performance.now() - started;
      const results = await Promise.all(hostileSends);
      const allMs = performance.now() - started;
      const grownMb = (Deno.memoryUsage().rss - rssBefore) / 1024 / 1024;
      console.log(
        `hostile peers: good contact answered in ${goodMs.toFixed(0)} ms; hostile sends ended in ${
          (allMs / 1000).toFixed(1)
        } s (${results.join("; ")}); memory grew ${grownMb.toFixed(1)} MiB`,
      );
      assert.ok(goodMs < 5_000);
      assert.ok(allMs < 20_000, "the slow peer is given up on");
      assert.ok(grownMb < 64, `memory grew ${grownMb} MiB`);
      // Slow and huge answers are not delivered: they wait in the outbox for retry.
      assert.equal(results[0], "pending");
      assert.equal(
        (await alice.node.state.outbox()).filter((e) => e.state === "pending").length >= 1,
        true,
      );
    } finally {
      await alice.close();
      await bob.close();
      for (const p of peers) await p.stop();
    }
  },
});
