import assert from "node:assert/strict";
import { startAgent, type TestAgent } from "./_agents.ts";
import { startSpine } from "../spine/_harness.ts";
import { type DoorbellMode, type SpineProxy, startSpineProxy } from "./_spine_proxy.ts";
import type { NetTimings } from "@agent/hub";
import { until } from "../_poll.ts";
import { sharedSpine } from "./_shared_spine.ts";

// Alice only asks and sends: her spine is the file's, Bob's (the one under test) each test's.
const aliceSpine = sharedSpine();

/** Alice, polling, on the file's spine with a fresh identity and home. */
async function startAlice(): Promise<TestAgent> {
  return await startAgent("alice", {
    link: "poll",
    spine: await aliceSpine.take(),
    env: { AGENT_SPINE_TOKEN: aliceSpine.token },
  });
}

interface Pair {
  alice: TestAgent;
  bob: TestAgent;
  proxy: SpineProxy;
  close(): Promise<void>;
}

/** Bob's hub reaches its spine through a proxy that treats the doorbell as told. */
async function pair(
  mode: DoorbellMode,
  link: "auto" | "websocket" | "poll",
  timings: Partial<NetTimings> = {},
): Promise<Pair> {
  const token = `tok-${crypto.randomUUID()}`;
  const spine = await startSpine({ hubToken: token });
  const proxy = startSpineProxy(spine.url, mode);
  const alice = await startAlice();
  const bob = await startAgent("bob", {
    spine,
    link,
    timings,
    env: { AGENT_SPINE_TOKEN: token, AGENT_SPINE_URL: proxy.url },
  });
  await alice.node.add(bob.address, "hi");
  await until(
    "request",
    async () => (await bob.node.state.contact(alice.address))?.state === "pending_in",
  ).catch((e) => {
    console.log(JSON.stringify(bob.service.status()), bob.handled.length);
    throw e;
  });
  await bob.node.accept(alice.address);
  await until(
    "accept",
    async () => (await alice.node.state.contact(bob.address))?.state === "accepted",
  );
  return {
    alice,
    bob,
    proxy,
    async close() {
      await alice.close();
      await bob.close();
      await proxy.close();
      await spine.stop();
    },
  };
}

async function delivered(p: Pair, text: string): Promise<void> {
  await p.alice.node.send(p.bob.address, text);
  await until(
    `bob handles '${text}'`,
    async () => (await p.bob.node.state.log()).some((e) => e.direction === "in" && e.text === text),
  );
}

Deno.test("link auto: a 404 on the upgrade falls back to the long poll at once", async () => {
  const p = await pair(404, "auto");
  try {
    await until("fallback", () => p.bob.service.status().doorbell.fallbacks === 1);
    const s = p.bob.service.status();
    assert.deepEqual([s.link, s.state], ["poll", "polling"]);
    assert.ok(s.doorbell.retry_at !== undefined);
    assert.ok(s.doorbell.last_error?.includes("404"), s.doorbell.last_error ?? "");
    assert.deepEqual(p.proxy.upgrades, 1);
    await delivered(p, "over the long poll");
  } finally {
    await p.close();
  }
});

Deno.test("link auto: a 426 falls back too, and the doorbell is retried later", async () => {
  const p = await pair(426, "auto", { doorbellRetryMs: 1500 });
  try {
    await until("fallback", () => p.bob.service.status().doorbell.fallbacks >= 1);
    p.proxy.mode = "pass";
    await until("doorbell back", () => p.bob.service.status().link === "websocket", {
      timeoutMs: 10_000,
    });
    await until("connected", () => p.bob.service.status().doorbell.connects === 1, {
      timeoutMs: 5000,
    }).catch(
      (e) => {
        console.log(JSON.stringify(p.bob.service.status()));
        throw e;
      },
    );
    assert.deepEqual(p.bob.service.status().doorbell.retry_at, undefined);
    await delivered(p, "over the doorbell again");
  } finally {
    await p.close();
  }
});

Deno.test("link auto: three short-lived connections in a row fall back", async () => {
  const p = await pair("cut", "auto");
  try {
    await until("fallback", () => p.bob.service.status().doorbell.fallbacks === 1, {
      timeoutMs: 10_000,
    });
    const s = p.bob.service.status();
    assert.deepEqual(s.doorbell.connects, 3);
    assert.deepEqual(s.link, "poll");
    await delivered(p, "after three failed attempts");
  } finally {
    await p.close();
  }
});

Deno.test("link websocket: never falls back; fetches over HTTP between attempts", async () => {
  const p = await pair(404, "websocket");
  try {
    await until("several attempts", () => p.proxy.upgrades >= 3, { timeoutMs: 10_000 });
    const s = p.bob.service.status();
    assert.deepEqual([s.link, s.doorbell.fallbacks], ["websocket", 0]);
    await delivered(p, "fetched after a backoff");
  } finally {
    await p.close();
  }
});

Deno.test("link poll: never opens the doorbell; a poll_timeout_seconds above 25 still polls", async () => {
  // agent.toml allows up to 60; the spine answers 400 to a wait above 25.
  const p = await pair("pass", "poll", { pollTimeoutSeconds: 40 });
  try {
    await delivered(p, "long-polled");
    assert.deepEqual(p.proxy.upgrades, 0);
    assert.deepEqual(p.bob.service.status().link, "poll");
    assert.deepEqual(p.bob.service.status().doorbell.last_error, null);
  } finally {
    await p.close();
  }
});

Deno.test("a silent doorbell counts as dropped after the drop time; the safety fetch still delivers", async () => {
  const p = await pair("silent", "websocket", { pingMs: 100, dropMs: 800, safetyFetchMs: 200 });
  try {
    await delivered(p, "found by the safety fetch");
    await until(
      "dropped",
      () => p.bob.service.status().doorbell.last_error?.startsWith("no frame for") === true,
    );
    assert.ok(p.bob.service.status().doorbell.connects >= 1);
  } finally {
    await p.close();
  }
});

Deno.test("a full batch (50) is fetched again at once; everything queued while away is handled", async () => {
  const token = `tok-${crypto.randomUUID()}`;
  const spine = await startSpine({ hubToken: token, rateLimits: false });
  const alice = await startAlice();
  const bob = await startAgent("bob", {
    spine,
    env: { AGENT_SPINE_TOKEN: token },
    net: { auto_reply: false },
    // Only the doorbell's hello (and rings) trigger fetches: no safety fetch in this test.
    timings: { safetyFetchMs: 600_000 },
  });
  try {
    await alice.node.add(bob.address, "hi");
    await until(
      "request",
      async () => (await bob.node.state.contact(alice.address))?.state === "pending_in",
    );
    await bob.node.accept(alice.address);
    await until(
      "accept",
      async () => (await alice.node.state.contact(bob.address))?.state === "accepted",
    );
    await bob.stopService();
    const before = bob.handled.length;
    for (let i = 0; i < 55; i++) await alice.node.send(bob.address, `queued ${i}`);
    assert.deepEqual((await bob.node.spine.health()).mailbox, 55);
    await bob.restartService();
    await bob.waitHandled(before + 55, 30_000);
    const texts = (await bob.node.state.log()).filter((e) => e.kind === "message")
      .map((e) => e.text);
    assert.deepEqual(texts, Array.from({ length: 55 }, (_, i) => `queued ${i}`));
    await until("all acknowledged", async () => (await bob.node.spine.health()).mailbox === 0);
    assert.ok(await bob.node.state.cursor() > 50);
  } finally {
    await alice.close();
    await bob.close();
    await spine.stop();
  }
});
