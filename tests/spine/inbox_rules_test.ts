/**
 * `POST /net/inbox` on workerd: the rules beside the table (own address, rate-limit
 * notices, spine to spine) and the order: a request failing two checks gets the earlier
 * one's error.
 *
 * The order tests take turns on one spine (`sharedSpineTest`): each brings its own
 * senders, and the IP-limit one its own client IP (`192.0.2.7`); what reaches the
 * per-IP limit from Miniflare's proxy (`127.0.0.1`) is 34 requests, under its 60 a minute.
 */
import assert from "node:assert/strict";
import { b64uEncode, generateIdentity } from "@agent/net";
import {
  envelopeFor,
  hub,
  inOneLimitWindow,
  nowSeconds as now,
  payloadObject,
  postInbox,
  unsigned,
} from "./_fixtures.ts";
import { startSpine } from "./_harness.ts";
import { sharedSpineTest, spineTest, TOKEN } from "./_setup.ts";

spineTest("inbox: an envelope from the spine's own address is checked against its stored card", {
  address: "me.example",
}, async (spine) => {
  const me = await generateIdentity();
  const self = { address: "me.example", identity: me };
  const wire = await envelopeFor(self, "me.example");
  // No card stored yet, and no fetch of https://me.example is attempted.
  assert.deepEqual((await postInbox(spine.url, wire)).body.error, "sender_card_unavailable");
  const put = await hub(spine.url, TOKEN, "/hub/card", {
    method: "PUT",
    body: JSON.stringify({ name: "Me", sign_key: me.signKey, box_key: me.boxKey }),
  });
  assert.deepEqual(put.status, 200);
  assert.deepEqual((await postInbox(spine.url, wire)).status, 202);
  const forged = await envelopeFor(
    { address: "me.example", identity: await generateIdentity() },
    "me.example",
  );
  assert.deepEqual((await postInbox(spine.url, forged)).status, 403);
});

spineTest("inbox: without rate-limit bindings the checks are skipped and logged once", {
  rateLimits: false,
}, async (spine, peers) => {
  const peer = await peers();
  for (let i = 0; i < 35; i++) {
    const r = await postInbox(spine.url, await envelopeFor(peer, spine.address), {
      "cf-connecting-ip": "10.1.1.1",
    });
    assert.deepEqual(r.status, 202);
  }
  const unbound = spine.logs.filter((l) => l.includes("rate_limit_unbound"));
  assert.deepEqual(unbound.length, 2, spine.logs.join("\n"));
  assert.ok(
    unbound.some((l) => l.includes("INBOX_IP_LIMIT")) &&
      unbound.some((l) => l.includes("INBOX_SENDER_LIMIT")),
  );
});

spineTest("inbox: a throwing rate-limit binding is skipped and logged once as rate_limit_failed", {
  rateLimits: false,
  bindings: { INBOX_IP_LIMIT: "not a binding", INBOX_SENDER_LIMIT: { limit: 1 } },
}, async (spine, peers) => {
  const peer = await peers();
  for (let i = 0; i < 3; i++) {
    const r = await postInbox(spine.url, await envelopeFor(peer, spine.address), {
      "cf-connecting-ip": "10.1.1.1",
    });
    assert.deepEqual(r.status, 202);
  }
  const failed = spine.logs.filter((l) => l.includes("rate_limit_failed"));
  assert.deepEqual(failed.length, 2, spine.logs.join("\n"));
});

// Order: a request failing two checks gets the earlier one's error.
sharedSpineTest("inbox order: content type before size before shape", {}, async (spine) => {
  const big = JSON.stringify({ payload: "A".repeat(70_000) });
  assert.deepEqual((await postInbox(spine.url, big, { "content-type": "text/plain" })).status, 415);
  assert.deepEqual((await postInbox(spine.url, big)).status, 413);
});

sharedSpineTest(
  "inbox order: shape before recipient, recipient before clock",
  {},
  async (spine) => {
    const badAndElsewhere = unsigned(payloadObject("peer.example", "elsewhere.example", { v: 2 }));
    assert.deepEqual((await postInbox(spine.url, badAndElsewhere)).body.error, "bad_request");
    const elsewhereAndStale = unsigned(
      payloadObject("peer.example", "elsewhere.example", { ts: now() - 1_000 }),
    );
    assert.deepEqual((await postInbox(spine.url, elsewhereAndStale)).body.error, "wrong_recipient");
  },
);

sharedSpineTest(
  "inbox order: clock before the sender limit, sender limit before the card, card before the signature",
  {},
  async (spine, peers) => {
    const peer = await peers();
    await inOneLimitWindow();
    for (let i = 0; i < 30; i++) await postInbox(spine.url, await envelopeFor(peer, spine.address));
    const stale = await envelopeFor(peer, spine.address, { ts: now() - 1_000 });
    assert.deepEqual((await postInbox(spine.url, stale)).body.error, "stale");
    peer.mode = "missing";
    const requestsBefore = peer.cardRequests;
    assert.deepEqual(
      (await postInbox(spine.url, await envelopeFor(peer, spine.address))).body.error,
      "rate_limited",
    );
    assert.deepEqual(peer.cardRequests, requestsBefore);
    const other = await peers();
    other.mode = "missing";
    const forged = await envelopeFor(
      { address: other.address, identity: await generateIdentity() },
      spine.address,
    );
    assert.deepEqual((await postInbox(spine.url, forged)).body.error, "sender_card_unavailable");
  },
);

sharedSpineTest(
  "inbox order: IP limit before the sender limit; signature before duplicate",
  {},
  async (spine, peers) => {
    const peer = await peers();
    const wire = await envelopeFor(peer, spine.address);
    assert.deepEqual((await postInbox(spine.url, wire)).status, 202);
    const tampered = { payload: wire.payload, sig: b64uEncode(new Uint8Array(64)) };
    assert.deepEqual((await postInbox(spine.url, tampered)).body.error, "bad_signature");
    await inOneLimitWindow();
    for (let i = 0; i < 60; i++) {
      const p = i % 2 === 0 ? peer : await peers();
      await postInbox(spine.url, unsigned(payloadObject(p.address, spine.address)), {
        "cf-connecting-ip": "192.0.2.7",
      });
    }
    // The 61st from that IP names a sender never seen: only the IP limit can refuse it.
    // (Forged posts naming `peer` no longer use up its own allowance: issue 27 S1.)
    const fresh = await peers();
    const r = await postInbox(spine.url, await envelopeFor(fresh, spine.address), {
      "cf-connecting-ip": "192.0.2.7",
    });
    assert.deepEqual(r.body.error, "rate_limited");
    const elsewhere = await postInbox(spine.url, await envelopeFor(peer, spine.address), {
      "cf-connecting-ip": "192.0.2.8",
    });
    assert.deepEqual(elsewhere.status, 202);
  },
);

// The card's spine is the shared one (a card stored there changes nothing the other
// tests read); the receiving one is fresh, as it counts its mailbox.
sharedSpineTest(
  "inbox: two spines on loopback: one fetches the other's published card over HTTP",
  {},
  async (a) => {
    const b = await startSpine({ hubToken: TOKEN });
    try {
      const alice = await generateIdentity();
      const put = await hub(a.url, TOKEN, "/hub/card", {
        method: "PUT",
        body: JSON.stringify({ name: "Alice", sign_key: alice.signKey, box_key: alice.boxKey }),
      });
      assert.deepEqual(put.status, 200);
      const wire = await envelopeFor({ address: a.address, identity: alice }, b.address, {
        kind: "contact_request",
      });
      assert.deepEqual(await postInbox(b.url, wire), {
        status: 202,
        body: { status: "queued", id: wire.id },
      });
      const updates = await hub(b.url, TOKEN, "/hub/updates");
      assert.deepEqual((updates.body.updates as unknown[]).length, 1);
    } finally {
      await b.stop();
    }
  },
);
