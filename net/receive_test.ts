import assert from "node:assert/strict";
import { b64uDecode, b64uEncode } from "./b64u.ts";
import { sealBox } from "./box.ts";
import { type EnvelopePayload, parseWireEnvelope, signEnvelope } from "./envelope.ts";
import { generateIdentity } from "./identity.ts";
import { verifyAndOpen, verifyAndOpenAll } from "./receive.ts";

const alice = await generateIdentity();
const bob = await generateIdentity();

async function envelope(text: string, change: Partial<EnvelopePayload> = {}) {
  const header = {
    id: crypto.randomUUID().replaceAll("-", ""),
    kind: "message" as const,
    from: "alice.example",
    to: "bob.example",
  };
  const box = await sealBox({ text }, header, bob.boxKey);
  const wire = await signEnvelope({
    v: 1,
    ...header,
    ts: 1_767_225_600,
    thread: header.id,
    reply_to: null,
    hops: 0,
    box,
    ...change,
  }, alice);
  const parsed = parseWireEnvelope(wire);
  if (!parsed.ok) throw new Error(parsed.detail);
  return parsed;
}

Deno.test("verifyAndOpen() returns the payload and plaintext of a good envelope", async () => {
  const parsed = await envelope("hello");
  const opened = await verifyAndOpen(parsed, alice.signKey, bob);
  assert.ok(opened.ok);
  assert.deepEqual(opened.plaintext, { text: "hello" });
  assert.deepEqual(opened.payload, parsed.payload);
});

Deno.test("verifyAndOpen() reports a bad signature before looking into the box", async () => {
  const parsed = await envelope("hello");
  const opened = await verifyAndOpen(parsed, bob.signKey, bob);
  assert.deepEqual(opened, { ok: false, reason: "bad_signature" });
  // A bad signature wins even when the box is also broken (no unhandled rejection).
  const broken = await envelope("x", { box: { epk: "AA", nonce: "AA", ct: "AA" } });
  assert.deepEqual(await verifyAndOpen(broken, bob.signKey, bob), {
    ok: false,
    reason: "bad_signature",
  });
  const sig = b64uDecode(parsed.wire.sig);
  sig[0]! ^= 1;
  const tampered = { ...parsed, wire: { ...parsed.wire, sig: b64uEncode(sig) } };
  assert.deepEqual(await verifyAndOpen(tampered, alice.signKey, bob), {
    ok: false,
    reason: "bad_signature",
  });
});

Deno.test("verifyAndOpen() reports a signed but unopenable box", async () => {
  const broken = await envelope("x", { box: { epk: "AA", nonce: "AA", ct: "AA" } });
  const opened = await verifyAndOpen(broken, alice.signKey, bob);
  assert.ok(!opened.ok && opened.reason === "unopenable");
  assert.deepEqual(opened.error.name, "OpenError");
  const carol = await generateIdentity();
  const forBob = await envelope("for bob");
  const wrong = await verifyAndOpen(forBob, alice.signKey, carol);
  assert.ok(!wrong.ok && wrong.reason === "unopenable");
});

Deno.test("verifyAndOpenAll() keeps the input order", async () => {
  const items = await Promise.all(
    ["one", "two", "three"].map(async (t) => ({
      parsed: await envelope(t),
      signKey: alice.signKey,
    })),
  );
  items[1] = { ...items[1]!, signKey: bob.signKey };
  const results = await verifyAndOpenAll(items, bob);
  assert.deepEqual(
    results.map((r) => (r.ok && "text" in r.plaintext ? r.plaintext.text : r.ok ? "" : r.reason)),
    [
      "one",
      "bad_signature",
      "three",
    ],
  );
});
