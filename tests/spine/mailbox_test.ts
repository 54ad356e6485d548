/** The Mailbox on workerd: long poll, doorbell, cron and a restart with envelopes queued. */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { generateIdentity } from "@agent/net";
import { MAILBOX_SCHEMA_VERSION } from "@agent/spine";
import { envelopeFor, hub, postInbox, startPeer } from "./_fixtures.ts";
import { startSpine } from "./_harness.ts";
import { sharedSpineTest, spineTest, TOKEN } from "./_setup.ts";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";

type Update = { seq: number; envelope: { payload: string } };

spineTest(
  "long poll: a waiting poll answers as soon as an envelope is stored",
  {},
  async (spine, peers) => {
    const peer = await peers();
    for (let round = 0; round < 10; round++) {
      const wire = await envelopeFor(peer, spine.address);
      const after = round;
      const started = performance.now();
      const poll = hub(spine.url, TOKEN, `/hub/updates?after=${after}&timeout=10`);
      // Vary the gap so the store lands before, during and after the poll's first query.
      await new Promise((r) => setTimeout(r, round % 4));
      assert.deepEqual((await postInbox(spine.url, wire)).status, 202);
      const answer = await poll;
      const took = performance.now() - started;
      const updates = answer.body.updates as Update[];
      assert.deepEqual(updates.map((u) => u.envelope.payload), [wire.payload], `round ${round}`);
      assert.ok(took < 5_000, `round ${round} took ${took} ms`); // not the 10 s timeout
    }
  },
);

spineTest(
  "long poll: an envelope stored before the poll is answered at once",
  {},
  async (spine, peers) => {
    const peer = await peers();
    const wire = await envelopeFor(peer, spine.address);
    await postInbox(spine.url, wire);
    const started = performance.now();
    const answer = await hub(spine.url, TOKEN, "/hub/updates?timeout=25");
    assert.ok(performance.now() - started < 1_000);
    assert.deepEqual((answer.body.updates as Update[]).length, 1);
  },
);

sharedSpineTest(
  "long poll: with nothing queued it answers empty after about the timeout",
  {},
  async (spine) => {
    const started = performance.now();
    const answer = await hub(spine.url, TOKEN, "/hub/updates?timeout=1");
    const took = performance.now() - started;
    assert.deepEqual(answer.body, { updates: [] });
    // At the timeout asked for, not the default 25 s (the bound allows a loaded machine).
    assert.ok(took >= 990 && took < 10_000, `took ${took} ms`);
  },
);

/** A doorbell client collecting messages and the close event. */
function doorbell(url: string, token = TOKEN) {
  const ws = new WebSocket(`${url.replace("http", "ws")}/hub/ws`, {
    headers: { authorization: `Bearer ${token}` },
  } as unknown as string[]);
  const messages: unknown[] = [];
  let closed: { code: number } | undefined;
  ws.onmessage = (e) => {
    messages.push(e.data === "pong" ? "pong" : JSON.parse(e.data));
  };
  ws.onclose = (e) => {
    closed = { code: e.code };
  };
  const wait = (check: () => boolean, what: string) => until(`the doorbell's ${what}`, check);
  return {
    ws,
    messages,
    get closed() {
      return closed;
    },
    next: async (count: number) => {
      await wait(() => messages.length >= count, `message ${count}`);
      return messages[count - 1];
    },
    waitClosed: async () => {
      await wait(() => closed !== undefined, "close");
      return closed!;
    },
    close: () => ws.close(),
  };
}

spineTest(
  "doorbell: hello with the depth, mail with the new depth to every doorbell, ping answered pong",
  {},
  async (spine, peers) => {
    const peer = await peers();
    await postInbox(spine.url, await envelopeFor(peer, spine.address));
    const a = doorbell(spine.url);
    const b = doorbell(spine.url);
    assert.deepEqual(await a.next(1), { type: "hello", depth: 1 });
    assert.deepEqual(await b.next(1), { type: "hello", depth: 1 });
    await postInbox(spine.url, await envelopeFor(peer, spine.address));
    assert.deepEqual(await a.next(2), { type: "mail", depth: 2 });
    assert.deepEqual(await b.next(2), { type: "mail", depth: 2 });
    a.ws.send("ping");
    assert.deepEqual(await a.next(3), "pong");
    // Anything else is ignored; the socket stays open and a duplicate rings nothing.
    a.ws.send("hello?");
    a.ws.send(JSON.stringify({ type: "ack", seqs: [1] }));
    a.ws.send("ping");
    assert.deepEqual(await a.next(4), "pong");
    assert.deepEqual(a.messages.length, 4);
    assert.deepEqual((await hub(spine.url, TOKEN, "/hub/health")).body.mailbox, 2);
    a.close();
    b.close();
  },
);

// On the shared spine: nothing posts there, so its mailbox stays empty (depth 0), and
// the test closes its own doorbells.
sharedSpineTest("doorbell: a fifth connection closes the oldest with 1008", {}, async (spine) => {
  const bells = [];
  for (let i = 0; i < 4; i++) {
    const bell = doorbell(spine.url);
    await bell.next(1);
    bells.push(bell);
  }
  const fifth = doorbell(spine.url);
  assert.deepEqual(await fifth.next(1), { type: "hello", depth: 0 });
  assert.deepEqual((await bells[0]!.waitClosed()).code, 1008);
  for (const bell of [...bells.slice(1), fifth]) {
    bell.ws.send("ping");
    assert.deepEqual(await bell.next(2), "pong");
    assert.deepEqual(bell.closed, undefined);
  }
  const sixth = doorbell(spine.url);
  await sixth.next(1);
  assert.deepEqual((await bells[1]!.waitClosed()).code, 1008);
  for (const bell of [...bells.slice(2), fifth, sixth]) bell.close();
});

sharedSpineTest("doorbell: a wrong token gets 401 before any upgrade", {}, async (spine) => {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: spine.port });
  const request = [
    "GET /hub/ws HTTP/1.1",
    `Host: ${spine.address}`,
    "Authorization: Bearer wrong",
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version: 13",
    "",
    "",
  ].join("\r\n");
  await conn.write(new TextEncoder().encode(request));
  // Read until the JSON body is in (it may come in a second packet) or the peer closes.
  const buffer = new Uint8Array(2048);
  let text = "";
  const deadline = Date.now() + 3_000;
  while (!text.includes("}") && Date.now() < deadline) {
    const n = await conn.read(buffer);
    if (n === null) break;
    text += new TextDecoder().decode(buffer.subarray(0, n));
  }
  conn.close();
  assert.ok(text.startsWith("HTTP/1.1 401"), text);
  assert.ok(text.includes(`{"error":"unauthorized"}`), text);
});

spineTest("cron: mailbox rows go after 7 days, seen rows after 1 day", {}, async (spine, peers) => {
  const peer = await peers();
  const first = await envelopeFor(peer, spine.address);
  await postInbox(spine.url, first);
  await postInbox(spine.url, await envelopeFor(peer, spine.address));
  const run = (offsetMs: number) => spine.cron(Date.now() + offsetMs);
  await run(0);
  assert.deepEqual((await hub(spine.url, TOKEN, "/hub/health")).body.mailbox, 2);
  assert.deepEqual((await postInbox(spine.url, first)).body.status, "duplicate");
  await run(86_400_000 + 60_000);
  assert.deepEqual((await hub(spine.url, TOKEN, "/hub/health")).body.mailbox, 2);
  // Its seen row is gone, so the same (from, id) is accepted again.
  assert.deepEqual((await postInbox(spine.url, first)).body.status, "queued");
  await run(7 * 86_400_000 + 60_000);
  assert.deepEqual((await hub(spine.url, TOKEN, "/hub/health")).body.mailbox, 0);
  // Seqs 1 to 3 were used and deleted by the cron; the next envelope gets 4.
  await postInbox(spine.url, await envelopeFor(peer, spine.address));
  const next = (await hub(spine.url, TOKEN, "/hub/updates")).body.updates as Update[];
  assert.deepEqual(next.map((u) => u.seq), [4]);
});

Deno.test({
  name: "restart: envelopes queued before a restart are all there after it, seqs continue",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "spine-restart-" });
    const port = freePort();
    const peer = await startPeer();
    const me = await generateIdentity();
    try {
      let spine = await startSpine({ hubToken: TOKEN, port, persistDir: dir });
      const sent = [];
      for (let i = 0; i < 5; i++) {
        const wire = await envelopeFor(peer, spine.address);
        sent.push(wire);
        assert.deepEqual((await postInbox(spine.url, wire)).status, 202);
      }
      await hub(spine.url, TOKEN, "/hub/card", {
        method: "PUT",
        body: JSON.stringify({ name: "Me", sign_key: me.signKey, box_key: me.boxKey }),
      });
      assert.deepEqual(
        (await hub(spine.url, TOKEN, "/hub/ack", { method: "POST", body: '{"seqs":[1]}' })).body,
        { deleted: 1 },
      );
      await spine.stop();

      spine = await startSpine({ hubToken: TOKEN, port, persistDir: dir });
      try {
        const updates = (await hub(spine.url, TOKEN, "/hub/updates")).body.updates as Update[];
        assert.deepEqual(updates.map((u) => u.seq), [2, 3, 4, 5]);
        assert.deepEqual(
          updates.map((u) => u.envelope.payload),
          sent.slice(1).map((w) => w.payload),
        );
        assert.deepEqual((await hub(spine.url, TOKEN, "/hub/health")).body.card, true);
        assert.deepEqual((await postInbox(spine.url, sent[2]!)).body.status, "duplicate");
        await postInbox(spine.url, await envelopeFor(peer, spine.address));
        const after = (await hub(spine.url, TOKEN, "/hub/updates?after=5")).body
          .updates as Update[];
        assert.deepEqual(after.map((u) => u.seq), [6]);
        // The peer's card came from the persisted cache.
        assert.deepEqual(peer.cardRequests, 1);
        // Everything acknowledged, the highest seq included.
        const ack = await hub(spine.url, TOKEN, "/hub/ack", {
          method: "POST",
          body: '{"seqs":[2,3,4,5,6]}',
        });
        assert.deepEqual(ack.body, { deleted: 5 });
      } finally {
        await spine.stop();
      }

      // Make the store look like schema version 1 wrote it, with the age index on seen
      // that version 2 drops.
      const folder = `${dir}/do/-Mailbox`;
      const file = `${folder}/${
        [...Deno.readDirSync(folder)].map((e) => e.name)
          .find((n) => n.endsWith(".sqlite") && n !== "metadata.sqlite")
      }`;
      {
        const db = new DatabaseSync(file);
        db.exec("CREATE INDEX seen_by_age ON seen (received_at)");
        db.exec("UPDATE meta SET value = 1 WHERE key = 'schema_version'");
        db.close();
      }

      // An empty mailbox after a restart still never hands out a used seq.
      spine = await startSpine({ hubToken: TOKEN, port, persistDir: dir });
      try {
        assert.deepEqual(
          (await postInbox(spine.url, await envelopeFor(peer, spine.address))).status,
          202,
        );
        const next = (await hub(spine.url, TOKEN, "/hub/updates")).body.updates as Update[];
        assert.deepEqual(next.map((u) => u.seq), [7]);
      } finally {
        await spine.stop();
      }

      // The Mailbox's own SQLite file: migrated to the current schema version, kept in
      // meta, and envelopes stored as {payload, sig} only.
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        const meta = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get();
        assert.deepEqual(meta?.value, MAILBOX_SCHEMA_VERSION);
        const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all();
        assert.ok(!indexes.some((i) => i.name === "seen_by_age"), JSON.stringify(indexes));
        const rows = db.prepare("SELECT seq, envelope FROM mailbox").all();
        assert.deepEqual(rows.map((r) => r.seq), [7]);
        assert.deepEqual(Object.keys(JSON.parse(String(rows[0]!.envelope))), ["payload", "sig"]);
      } finally {
        db.close();
      }
    } finally {
      await peer.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
