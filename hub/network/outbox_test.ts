import assert from "node:assert/strict";
import { Logger } from "../log.ts";
import { resolvePaths } from "../paths.ts";
import {
  dropPending,
  flushOutbox,
  isTransient,
  type OutboxNode,
  sendThroughOutbox,
} from "./outbox.ts";
import type { NetEvent, OwnerEvent } from "../events/mod.ts";
import { SpineError } from "./spine_client.ts";
import { NetState } from "./store/state.ts";
import { tempDir } from "../../tests/_temp_dir.ts";

/**
 * A node whose spine answers what `answers` says, in turn; the rest of it is real. Its
 * home is removed at the end of the test's `using` block.
 */
function node(answers: (number | "ok")[]) {
  const home = tempDir("outbox_test_");
  const dir = home.path;
  let clock = 1_800_000_000;
  const posted: string[] = [];
  const n: OutboxNode & Disposable & { posted: string[]; tick(s: number): void } = {
    [Symbol.dispose]: () => home[Symbol.dispose](),
    state: NetState.file(`${dir}/net`),
    logger: new Logger({ stderr: "off" }),
    paths: resolvePaths({ home: dir, env: {} }),
    nowSec: () => clock,
    tick: (s) => clock += s,
    posted,
    deliver(_kind, to, _plaintext, options) {
      const answer = answers.shift() ?? "ok";
      if (answer !== "ok") {
        return Promise.reject(new SpineError(`Cannot deliver to ${to.address}`, answer, "x"));
      }
      posted.push(options.id!);
      return Promise.resolve({ delivery: "queued" as const });
    },
    logOut: () => Promise.resolve(),
  };
  return n;
}

const ENTRY = {
  id: "reply-1",
  to: "peer.example",
  box_key: "k",
  kind: "message" as const,
  plaintext: { text: "hi" },
  thread: "t",
  reply_to: null,
  hops: 0,
  log: { text: "hi" },
};

Deno.test("isTransient(): no answer, 5xx and 429 are retried; another 4xx is not", () => {
  for (const status of [0, 429, 500, 503]) assert.ok(isTransient(new SpineError("x", status, "")));
  for (const status of [400, 401, 403, 404, 413]) {
    assert.ok(!isTransient(new SpineError("x", status, "")));
  }
  assert.ok(!isTransient(new Error("other")));
});

Deno.test("the outbox retries a transient failure with backoff and delivers once", async () => {
  using n = node([503, 0, "ok"]);
  assert.equal(await sendThroughOutbox(n, ENTRY), "pending");
  let [e] = await n.state.outbox();
  assert.deepEqual([e?.state, e?.attempts], ["pending", 1]);
  // Not due yet: nothing is posted.
  await flushOutbox(n);
  assert.deepEqual(n.posted, []);
  n.tick(3_600);
  assert.deepEqual(await flushOutbox(n), { sent: 0, waiting: 1 });
  n.tick(3_600);
  assert.deepEqual(await flushOutbox(n), { sent: 1, waiting: 0 });
  assert.deepEqual(n.posted, ["reply-1"]);
  // Sent again (a re-handled message): nothing is posted twice.
  assert.equal(await sendThroughOutbox(n, ENTRY), "duplicate");
  [e] = await n.state.outbox();
  assert.equal(e?.state, "sent");
  // A day later the delivered entry is forgotten.
  n.tick(86_400);
  await flushOutbox(n);
  assert.deepEqual(await n.state.outbox(), []);
});

Deno.test("the outbox drops a hard refusal at once, and gives up after 24 hours", async () => {
  using refused = node([403]);
  await assert.rejects(sendThroughOutbox(refused, ENTRY), SpineError);
  assert.deepEqual(await refused.state.outbox(), []);

  using down = node(Array(100).fill(0));
  assert.equal(await sendThroughOutbox(down, ENTRY), "pending");
  for (let i = 0; i < 30; i++) {
    down.tick(3_600);
    await flushOutbox(down);
  }
  assert.deepEqual(await down.state.outbox(), []);
  assert.deepEqual(down.posted, []);
});

Deno.test("the outbox keeps to a peer's Retry-After rather than its own backoff", async () => {
  const n = node([]);
  n.deliver = (_kind, to) =>
    Promise.reject(
      new SpineError(`Cannot deliver to ${to.address}`, 429, "rate_limited", {
        retryAfterMs: 600_000,
      }),
    );
  try {
    const now = n.nowSec();
    assert.equal(await sendThroughOutbox(n, ENTRY), "pending");
    const [e] = await n.state.outbox();
    assert.equal(e?.next_at, now + 600);
    assert.match(e?.last_error ?? "", /HTTP 429 rate_limited \(retry after 600 s\)/);
  } finally {
    await Deno.remove(n.paths.home, { recursive: true });
  }
});

const REMOVAL = {
  ...ENTRY,
  id: "removal-1",
  kind: "contact_removed" as const,
  plaintext: { name: "Alice" },
  log: { text: "" },
};

Deno.test("the outbox carries a removal notice like a message; given up on, the owner is not told", async () => {
  using n = node(Array(100).fill(0));
  const told: NetEvent[] = [];
  const withEvents = Object.assign(n, {
    events: {
      publish: (event: NetEvent) => {
        told.push(event);
        return Promise.resolve({ ...event, event_id: "x" } as unknown as OwnerEvent);
      },
    },
  });
  assert.equal(await sendThroughOutbox(withEvents, REMOVAL), "pending");
  assert.equal(await sendThroughOutbox(withEvents, ENTRY), "pending");
  for (let i = 0; i < 30; i++) {
    n.tick(3_600);
    await flushOutbox(withEvents);
  }
  assert.deepEqual(await n.state.outbox(), []);
  // Only the message is told as undeliverable: the removal stands either way.
  assert.deepEqual(told.map((e) => e.type === "net.outbox_dropped" && e.id), ["reply-1"]);
});

Deno.test("dropPending() forgets a waiting removal notice to one address only", async () => {
  using n = node([0, 0, 0]);
  await sendThroughOutbox(n, REMOVAL);
  await sendThroughOutbox(n, { ...REMOVAL, id: "removal-2", to: "other.example" });
  await sendThroughOutbox(n, ENTRY);
  await dropPending(n.state, "contact_removed", "peer.example");
  assert.deepEqual((await n.state.outbox()).map((e) => e.id), ["removal-2", "reply-1"]);
});
