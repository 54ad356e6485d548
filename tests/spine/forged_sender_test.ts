/**
 * Issue 27 S1 on workerd: a stranger posting forged, unsigned envelopes that name a
 * contact must not use up that contact's per-minute allowance. The forged posts are
 * counted on the claimed sender; the contact's envelopes, which verify, on their own
 * verified counter (docs/spine.md, "Rules where the spec is silent").
 *
 * The three tests take turns on one spine: each has its own contact or claimed sender and
 * its own client IPs, so no counter one fills is another's.
 */
import assert from "node:assert/strict";
import { envelopeFor, inOneLimitWindow, payloadObject, postInbox, unsigned } from "./_fixtures.ts";
import { sharedSpineTest } from "./_setup.ts";

sharedSpineTest(
  "inbox: 40 forged unsigned posts naming a contact leave its genuine envelopes accepted",
  {},
  async (spine, peers) => {
    const contact = await peers("Contact");
    await inOneLimitWindow(20);
    const forged: number[] = [];
    for (let i = 0; i < 40; i++) {
      const fake = unsigned(
        payloadObject(contact.address, spine.address, { id: `forged${i}`.padEnd(16, "x") }),
      );
      // From two addresses, each under the per-IP limit, as in the report.
      const r = await postInbox(spine.url, fake, { "cf-connecting-ip": `198.51.100.${i % 2}` });
      forged.push(r.status);
    }
    // None is stored: each fails the signature (no 429 for the forger either, past 30 it is
    // checked against the card the spine already holds).
    assert.deepEqual(new Set(forged), new Set([403]), forged.join(","));

    for (let i = 0; i < 3; i++) {
      const genuine = await envelopeFor(contact, spine.address);
      const r = await postInbox(spine.url, genuine, { "cf-connecting-ip": "203.0.113.7" });
      assert.deepEqual([r.status, r.body.status], [202, "queued"], `genuine ${i}`);
    }
  },
);

sharedSpineTest(
  "inbox: a contact's own 31st envelope in a minute still gets 429 with Retry-After",
  {},
  async (spine, peers) => {
    const contact = await peers("Contact");
    await inOneLimitWindow(20);
    for (let i = 0; i < 40; i++) {
      const fake = unsigned(payloadObject(contact.address, spine.address));
      await postInbox(spine.url, fake, { "cf-connecting-ip": `198.51.100.${10 + (i % 2)}` });
    }
    for (let i = 0; i < 30; i++) {
      const r = await postInbox(spine.url, await envelopeFor(contact, spine.address), {
        "cf-connecting-ip": `203.0.113.${i}`,
      });
      assert.deepEqual(r.status, 202, `genuine ${i}`);
    }
    const over = await fetch(`${spine.url}/net/inbox`, {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": "203.0.113.99" },
      body: JSON.stringify(await envelopeFor(contact, spine.address)),
    });
    assert.deepEqual([over.status, await over.json()], [429, { error: "rate_limited" }]);
    assert.deepEqual(over.headers.get("retry-after"), "60");
  },
);

sharedSpineTest(
  "inbox: over the claimed limit a sender whose card the spine never held gets 429, no fetch",
  {},
  async (spine, peers) => {
    const stranger = await peers("Stranger");
    await inOneLimitWindow(20);
    // Over the claimed counter without any card fetch: a sender that is not reachable.
    const unreachable = "127.0.0.1:9";
    for (let i = 0; i < 30; i++) {
      const r = await postInbox(spine.url, unsigned(payloadObject(unreachable, spine.address)), {
        "cf-connecting-ip": `198.51.100.${20 + (i % 2)}`,
      });
      assert.deepEqual(r.status, 502, `claimed ${i}`);
    }
    const r = await postInbox(spine.url, unsigned(payloadObject(unreachable, spine.address)), {
      "cf-connecting-ip": "198.51.100.23",
    });
    assert.deepEqual(r, { status: 429, body: { error: "rate_limited" } });
    // Other senders are not affected.
    const ok = await postInbox(spine.url, await envelopeFor(stranger, spine.address));
    assert.deepEqual(ok.status, 202);
  },
);
