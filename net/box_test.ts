import assert from "node:assert/strict";
import { b64uDecode, b64uEncode } from "./b64u.ts";
import { type BoxHeader, openBox, OpenError, sealBox } from "./box.ts";
import type { Box } from "./envelope.ts";
import { generateIdentity } from "./identity.ts";

const HEADER: BoxHeader<"message"> = {
  id: "abcdefghijklmnop",
  kind: "message",
  from: "alice.example",
  to: "bob.example",
};

const bob = await generateIdentity();

function flip(text: string, index: number): string {
  const bytes = b64uDecode(text);
  bytes[index < 0 ? bytes.length + index : index]! ^= 1;
  return b64uEncode(bytes);
}

Deno.test("sealBox() and openBox() round-trip every kind", async () => {
  const message = await sealBox({ text: "merhaba 😀", sub: "chef" }, HEADER, bob.boxKey);
  assert.deepEqual(await openBox(message, HEADER, bob), { text: "merhaba 😀", sub: "chef" });
  const request = { ...HEADER, kind: "contact_request" as const };
  const boxed = await sealBox({ name: "Alice", text: "" }, request, bob.boxKeyBytes);
  assert.deepEqual(await openBox(boxed, request, bob), { name: "Alice", text: "" });
  const accept = { ...HEADER, kind: "contact_accept" as const };
  assert.deepEqual(await openBox(await sealBox({ name: "A" }, accept, bob.boxKey), accept, bob), {
    name: "A",
  });
});

Deno.test("sealBox() uses a fresh ephemeral key and nonce per call", async () => {
  const a = await sealBox({ text: "same" }, HEADER, bob.boxKey);
  const b = await sealBox({ text: "same" }, HEADER, bob.boxKey);
  assert.ok(a.epk !== b.epk && a.nonce !== b.nonce && a.ct !== b.ct);
  assert.deepEqual(b64uDecode(a.epk).length, 32);
  assert.deepEqual(b64uDecode(a.nonce).length, 12);
  assert.deepEqual(b64uDecode(a.ct).length, JSON.stringify({ text: "same" }).length + 16);
});

Deno.test("openBox() rejects wrong associated data", async () => {
  const box = await sealBox({ text: "hi" }, HEADER, bob.boxKey);
  for (
    const header of [
      { ...HEADER, id: "abcdefghijklmnoq" },
      { ...HEADER, kind: "contact_accept" as const },
      { ...HEADER, from: "eve.example" },
      { ...HEADER, to: "carol.example" },
    ]
  ) {
    await assert.rejects(
      () => openBox(box, header, bob),
      (e: unknown) => e instanceof OpenError && e.message.includes("does not authenticate"),
    );
  }
});

Deno.test("openBox() rejects a tampered ciphertext, nonce or ephemeral key", async () => {
  const box = await sealBox({ text: "hi" }, HEADER, bob.boxKey);
  for (
    const changed of [{ ct: flip(box.ct, 0) }, { ct: flip(box.ct, -1) }, {
      nonce: flip(box.nonce, 3),
    }, { epk: flip(box.epk, 5) }]
  ) {
    await assert.rejects(() => openBox({ ...box, ...changed }, HEADER, bob), OpenError);
  }
});

Deno.test("openBox() rejects a box sealed for another key", async () => {
  const carol = await generateIdentity();
  const box = await sealBox({ text: "hi" }, HEADER, carol.boxKey);
  await assert.rejects(
    () => openBox(box, HEADER, bob),
    (e: unknown) => e instanceof OpenError && e.message.includes("does not authenticate"),
  );
  assert.deepEqual(await openBox(box, HEADER, carol), { text: "hi" });
});

Deno.test("openBox() rejects short and malformed input", async () => {
  const box = await sealBox({ text: "hi" }, HEADER, bob.boxKey);
  const ct = b64uDecode(box.ct);
  const bad: Box[] = [
    { ...box, ct: b64uEncode(ct.subarray(0, 15)) },
    { ...box, ct: b64uEncode(ct.subarray(0, 16)) },
    { ...box, ct: "" },
    { ...box, ct: box.ct + "+" },
    { ...box, nonce: b64uEncode(new Uint8Array(11)) },
    { ...box, epk: b64uEncode(new Uint8Array(31)) },
    { ...box, epk: 5 as unknown as string },
  ];
  for (const b of bad) await assert.rejects(() => openBox(b, HEADER, bob), OpenError);
  await assert.rejects(() => openBox(null as unknown as Box, HEADER, bob), OpenError);
});

Deno.test("openBox() rejects low-order ephemeral keys (all-zero shared secret)", async () => {
  const box = await sealBox({ text: "hi" }, HEADER, bob.boxKey);
  const one = new Uint8Array(32);
  one[0] = 1;
  for (const epk of [new Uint8Array(32), one]) {
    await assert.rejects(
      () => openBox({ ...box, epk: b64uEncode(epk) }, HEADER, bob),
      (e: unknown) =>
        e instanceof OpenError && e.name === "OpenError" && e.cause !== undefined &&
        e.message.includes("ephemeral key is unusable"),
    );
  }
  await assert.rejects(() => sealBox({ text: "hi" }, HEADER, new Uint8Array(32)), TypeError);
});

Deno.test("openBox() treats content that breaks its schema as unopenable", async () => {
  // Seal raw content past sealBox()'s own checks by sealing it under another kind's schema.
  const cases: [object, BoxHeader, string][] = [
    [{ text: "hi", sub: "Chef" }, HEADER, "'sub'"],
    [{ text: "hi", sub: 7 }, HEADER, "'sub'"],
    [{ text: "hi", sub: "a" }, HEADER, "'sub'"],
    [{ text: "x".repeat(8001) }, HEADER, "8000"],
    [{ name: "A" }, HEADER, "'text'"],
    [{ text: "no name" }, { ...HEADER, kind: "contact_accept" }, "'name'"],
  ];
  for (const [content, header, detail] of cases) {
    const box = await sealRaw(content, header);
    await assert.rejects(
      () => openBox(box, header, bob),
      (e: unknown) => e instanceof OpenError && e.message.includes(detail),
    );
  }
  const none = await sealRaw({ text: "hi", sub: null, more: 1 }, HEADER);
  assert.deepEqual(await openBox(none, HEADER, bob), { text: "hi" });
  assert.deepEqual(await openBox(await sealRaw({ text: "😀".repeat(8000) }, HEADER), HEADER, bob), {
    text: "😀".repeat(8000),
  });
});

Deno.test("sealBox() refuses content its receiver could not open", async () => {
  await assert.rejects(() => sealBox({ text: "hi", sub: "Bad" }, HEADER, bob.boxKey), TypeError);
  await assert.rejects(() => sealBox({ text: "x".repeat(8001) }, HEADER, bob.boxKey), RangeError);
  await assert.rejects(() => sealBox({ text: "hi" }, HEADER, "AAAA"), TypeError);
});

// Seals arbitrary JSON the way sealBox() does, bypassing its schema check.
async function sealRaw(content: unknown, header: BoxHeader): Promise<Box> {
  const { chacha20poly1305 } = await import("@noble/ciphers/chacha.js");
  const { x25519 } = await import("@noble/curves/ed25519.js");
  const { hkdf } = await import("@noble/hashes/hkdf.js");
  const { sha256 } = await import("@noble/hashes/sha2.js");
  const esk = crypto.getRandomValues(new Uint8Array(32));
  const epk = x25519.getPublicKey(esk);
  const shared = x25519.getSharedSecret(esk, bob.boxKeyBytes);
  const salt = new Uint8Array([...epk, ...bob.boxKeyBytes]);
  const key = hkdf(sha256, shared, salt, new TextEncoder().encode("agent-net/1 box"), 32);
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const ad = new TextEncoder().encode(
    `agent-net/1|${header.id}|${header.kind}|${header.from}|${header.to}`,
  );
  const ct = chacha20poly1305(key, nonce, ad).encrypt(
    new TextEncoder().encode(JSON.stringify(content)),
  );
  return { epk: b64uEncode(epk), nonce: b64uEncode(nonce), ct: b64uEncode(ct) };
}
