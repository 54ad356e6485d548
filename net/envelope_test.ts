import assert from "node:assert/strict";
import { b64uDecode, b64uEncode } from "./b64u.ts";
import {
  deriveEnvelopeId,
  type EnvelopePayload,
  newEnvelopeId,
  parseWireEnvelope,
  parseWireEnvelopeText,
  signEnvelope,
  verifyEnvelope,
} from "./envelope.ts";
import { generateIdentity } from "./identity.ts";

const PAYLOAD: EnvelopePayload = {
  v: 1,
  id: "abcdefghijklmnop",
  kind: "message",
  from: "alice.example",
  to: "bob.example",
  ts: 1_700_000_000,
  thread: "abcdefghijklmnop",
  reply_to: null,
  hops: 0,
  box: { epk: "AA", nonce: "AA", ct: "AA" },
};

function wireOf(payload: unknown, sig = "AA"): { payload: string; sig: string } {
  return { payload: b64uEncode(new TextEncoder().encode(JSON.stringify(payload))), sig };
}

function detailOf(value: unknown): string {
  const r = parseWireEnvelope(value);
  if (r.ok) throw new Error("expected a bad envelope");
  return r.detail;
}

Deno.test("signEnvelope() output verifies and parses back", async () => {
  const me = await generateIdentity();
  const wire = await signEnvelope(PAYLOAD, me);
  assert.ok(await verifyEnvelope(wire, me.signKey));
  assert.ok(await verifyEnvelope(wire, me.signKeyBytes));
  const parsed = parseWireEnvelope({ ...wire, extra: 1 });
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.wire, wire);
  assert.deepEqual(parsed.payload, PAYLOAD);
  assert.deepEqual(parsed.payloadBytes, b64uDecode(wire.payload));
});

Deno.test("verifyEnvelope() signs the prefixed bytes exactly", async () => {
  const me = await generateIdentity();
  const bytes = new TextEncoder().encode(JSON.stringify(PAYLOAD));
  const prefixed = new Uint8Array([...new TextEncoder().encode("agent-net/1\n"), ...bytes]);
  const sig = new Uint8Array(await crypto.subtle.sign("Ed25519", me.signPrivateKey, prefixed));
  assert.ok(await verifyEnvelope({ payload: b64uEncode(bytes), sig: b64uEncode(sig) }, me.signKey));
  // Without the domain prefix the same key's signature is not valid.
  const bare = new Uint8Array(await crypto.subtle.sign("Ed25519", me.signPrivateKey, bytes));
  assert.deepEqual(
    await verifyEnvelope({ payload: b64uEncode(bytes), sig: b64uEncode(bare) }, me.signKey),
    false,
  );
});

Deno.test("verifyEnvelope() is false for tampering, other keys and malformed input", async () => {
  const me = await generateIdentity();
  const other = await generateIdentity();
  const wire = await signEnvelope(PAYLOAD, me);
  assert.deepEqual(await verifyEnvelope(wire, other.signKey), false);
  const tampered = wireOf({ ...PAYLOAD, hops: 1 }, wire.sig);
  assert.deepEqual(await verifyEnvelope(tampered, me.signKey), false);
  const sig = b64uDecode(wire.sig);
  assert.deepEqual(
    await verifyEnvelope({ ...wire, sig: b64uEncode(sig.subarray(0, 63)) }, me.signKey),
    false,
  );
  assert.deepEqual(
    await verifyEnvelope({ ...wire, sig: b64uEncode(new Uint8Array([...sig, 0])) }, me.signKey),
    false,
  );
  assert.deepEqual(await verifyEnvelope({ ...wire, sig: "" }, me.signKey), false);
  assert.deepEqual(await verifyEnvelope({ ...wire, sig: "+" }, me.signKey), false);
  assert.deepEqual(await verifyEnvelope(wire, "AAAA"), false);
  assert.deepEqual(await verifyEnvelope(wire, "not b64u!"), false);
  assert.deepEqual(await verifyEnvelope(wire, new Uint8Array(31)), false);
});

Deno.test("parseWireEnvelope() names the first bad field", () => {
  assert.deepEqual(detailOf(null), "the body must be a JSON object");
  assert.deepEqual(detailOf([]), "the body must be a JSON object");
  assert.deepEqual(detailOf({ sig: "AA" }), "'payload' is missing");
  assert.deepEqual(detailOf({ payload: 1, sig: "AA" }), "'payload' must be a string");
  assert.deepEqual(detailOf({ payload: "AA" }), "'sig' is missing");
  assert.deepEqual(detailOf({ payload: "AA", sig: null }), "'sig' must be a string");
  assert.deepEqual(detailOf({ payload: "A+", sig: "AA" }), "'payload' is not valid base64url");
  assert.deepEqual(detailOf({ ...wireOf(PAYLOAD), sig: "A" }), "'sig' is not valid base64url");
  assert.deepEqual(
    detailOf({ payload: b64uEncode(new Uint8Array([0xff])), sig: "AA" }),
    "the payload is not UTF-8 JSON",
  );
  assert.deepEqual(detailOf(wireOf([1])), "the payload must be a JSON object");
  const { hops: _, ...noHops } = PAYLOAD;
  assert.deepEqual(detailOf(wireOf(noHops)), "the payload is missing 'hops'");
  const cases: [Partial<Record<keyof EnvelopePayload, unknown>>, string][] = [
    [{ v: 2 }, "payload 'v' must be 1"],
    [{ id: "short" }, "payload 'id' must match ^[A-Za-z0-9_-]{16,64}$"],
    [{ id: "a".repeat(65) }, "payload 'id' must match ^[A-Za-z0-9_-]{16,64}$"],
    [{ id: "abcdefghijklmno!" }, "payload 'id' must match ^[A-Za-z0-9_-]{16,64}$"],
    [
      { kind: "hello" },
      "payload 'kind' must be contact_request, contact_accept, message or contact_removed",
    ],
    [{ from: "Alice.example" }, "payload 'from' must be a valid address"],
    [{ to: 5 }, "payload 'to' must be a string"],
    [{ ts: 1.5 }, "payload 'ts' must be an integer"],
    [{ ts: "1" }, "payload 'ts' must be an integer"],
    [{ thread: null }, "payload 'thread' must be a string"],
    [{ reply_to: 3 }, "payload 'reply_to' must be a string or null"],
    [{ hops: -1 }, "payload 'hops' must be an integer at least 0"],
    [{ hops: 0.5 }, "payload 'hops' must be an integer at least 0"],
    [
      { box: { epk: "", nonce: "" } },
      "payload 'box' must be an object with string 'epk', 'nonce' and 'ct'",
    ],
    [{ box: "x" }, "payload 'box' must be an object with string 'epk', 'nonce' and 'ct'"],
  ];
  for (const [change, detail] of cases) {
    assert.deepEqual(detailOf(wireOf({ ...PAYLOAD, ...change })), detail, JSON.stringify(change));
  }
  const text = parseWireEnvelopeText("{");
  assert.deepEqual(text.ok ? "" : text.detail, "the body is not JSON");
});

Deno.test("parseWireEnvelope() accepts a reply with reply_to and padded b64u", () => {
  const wire = wireOf({ ...PAYLOAD, reply_to: "qrstuvwxyzABCDEF", hops: 3 });
  const padded = {
    payload: wire.payload + "=".repeat((4 - (wire.payload.length % 4)) % 4),
    sig: "AA==",
  };
  const r = parseWireEnvelope(padded);
  assert.ok(r.ok);
  assert.deepEqual(r.payload.reply_to, "qrstuvwxyzABCDEF");
  assert.deepEqual(r.payload.hops, 3);
});

Deno.test("signEnvelope() refuses a malformed payload", async () => {
  const me = await generateIdentity();
  await assert.rejects(
    () => signEnvelope({ ...PAYLOAD, id: "x" }, me),
    (e: unknown) => e instanceof TypeError && e.message.includes("'id'"),
  );
});

Deno.test("newEnvelopeId() and deriveEnvelopeId() make valid ids", async () => {
  assert.ok(newEnvelopeId() !== newEnvelopeId());
  const a = await deriveEnvelopeId(["reply", "x"]);
  assert.deepEqual(a, await deriveEnvelopeId(["reply", "x"]));
  assert.ok(a !== await deriveEnvelopeId(["reply", "y"]));
  assert.ok(/^[A-Za-z0-9_-]{22}$/.test(a));
});
