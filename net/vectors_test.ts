// The committed vectors (net/testdata/vectors.json) checked against two independent
// implementations: this package (Web Crypto) and @noble/curves + @noble/hashes +
// @noble/ciphers. The seeds come from RFC 8032 7.1 TEST 1 and RFC 7748 6.1, so the
// public keys and the X25519 shared secret also match those RFCs.

import assert from "node:assert/strict";
import { ed25519, x25519 } from "@noble/curves/ed25519.js";
import { chacha20poly1305 } from "@noble/ciphers/chacha.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { b64uDecode as d, b64uEncode as e } from "./b64u.ts";
import { type BoxHeader, openBox, sealBox } from "./box.ts";
import { parseWireEnvelope, signEnvelope, verifyEnvelope } from "./envelope.ts";
import { identityFromEnv, identityFromJson, identityToJson } from "./identity.ts";
import { signUniverseRequest, verifyUniverseRequest } from "./universe_request.ts";

const V = JSON.parse(
  await Deno.readTextFile(new URL("./testdata/vectors.json", import.meta.url)),
);
const utf8 = (s: string) => new TextEncoder().encode(s);
const cat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));
const HEADER = V.box.header as BoxHeader<"message">;

Deno.test("vectors: seeds give the published keys (Web Crypto)", async () => {
  const id = await identityFromJson(V.identity.json);
  assert.deepEqual(id.signKey, V.identity.sign_key);
  assert.deepEqual(id.boxKey, V.identity.box_key);
  assert.deepEqual(JSON.stringify(identityToJson(id)), V.identity.json);
  assert.deepEqual((await identityFromEnv(V.identity.env)).signKey, V.identity.sign_key);
});

Deno.test("vectors: seeds give the published keys (noble)", () => {
  assert.deepEqual(e(ed25519.getPublicKey(d(V.identity.sign_seed))), V.identity.sign_key);
  assert.deepEqual(e(x25519.getPublicKey(d(V.identity.box_seed))), V.identity.box_key);
  assert.deepEqual(e(x25519.getPublicKey(d(V.box.ephemeral_seed))), V.box.epk);
  // RFC 8032 7.1 TEST 1 public key, RFC 7748 6.1 shared secret.
  assert.deepEqual(
    e(ed25519.getPublicKey(d(V.identity.sign_seed))),
    "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
  );
  assert.deepEqual(V.box.shared, "Sl2dW6TOLeFyjjv0gDUPJeB-IclH0Z4zdvCbPB4WF0I");
});

Deno.test("vectors: envelope signature (Web Crypto)", async () => {
  const id = await identityFromJson(V.identity.json);
  const payload = JSON.parse(V.envelope.payload_json);
  const wire = await signEnvelope(payload, id);
  assert.deepEqual(wire, { payload: V.envelope.payload, sig: V.envelope.sig });
  assert.ok(await verifyEnvelope(wire, V.identity.sign_key));
  const parsed = parseWireEnvelope(wire);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.payload, payload);
});

Deno.test("vectors: envelope signature (noble)", () => {
  const message = cat(utf8("agent-net/1\n"), d(V.envelope.payload));
  assert.deepEqual(e(ed25519.sign(message, d(V.identity.sign_seed))), V.envelope.sig);
  assert.ok(ed25519.verify(d(V.envelope.sig), message, d(V.identity.sign_key)));
  assert.deepEqual(new TextDecoder().decode(d(V.envelope.payload)), V.envelope.payload_json);
});

Deno.test("vectors: sealed box from a fixed ephemeral key and nonce (Web Crypto)", async () => {
  const box = await sealBox(JSON.parse(V.box.plaintext_json), HEADER, V.box.recipient_box_key, {
    ephemeralSeed: d(V.box.ephemeral_seed),
    nonce: d(V.box.nonce),
  });
  assert.deepEqual(box, { epk: V.box.epk, nonce: V.box.nonce, ct: V.box.ct });
  const recipient = await identityFromJson(V.identity.json);
  assert.deepEqual(await openBox(box, HEADER, recipient), JSON.parse(V.box.plaintext_json));
  assert.deepEqual(JSON.parse(V.envelope.payload_json).box, box);
});

Deno.test("vectors: sealed box from a fixed ephemeral key and nonce (noble)", () => {
  const shared = x25519.getSharedSecret(d(V.box.ephemeral_seed), d(V.box.recipient_box_key));
  assert.deepEqual(e(shared), V.box.shared);
  // The recipient side reaches the same secret from its own seed and the epk.
  assert.deepEqual(e(x25519.getSharedSecret(d(V.identity.box_seed), d(V.box.epk))), V.box.shared);
  const salt = cat(d(V.box.epk), d(V.box.recipient_box_key));
  const key = hkdf(sha256, shared, salt, utf8("agent-net/1 box"), 32);
  assert.deepEqual(e(key), V.box.key);
  const ad = utf8(V.box.associated_data);
  assert.deepEqual(
    V.box.associated_data,
    `agent-net/1|${HEADER.id}|${HEADER.kind}|${HEADER.from}|${HEADER.to}`,
  );
  const ct = chacha20poly1305(key, d(V.box.nonce), ad).encrypt(utf8(V.box.plaintext_json));
  assert.deepEqual(e(ct), V.box.ct);
  const plain = chacha20poly1305(key, d(V.box.nonce), ad).decrypt(d(V.box.ct));
  assert.deepEqual(new TextDecoder().decode(plain), V.box.plaintext_json);
});

Deno.test("vectors: universe request signature (Web Crypto and noble)", async () => {
  const id = await identityFromJson(V.identity.json);
  const wire = await signUniverseRequest(JSON.parse(V.universe.payload_json), id);
  assert.deepEqual(wire, { payload: V.universe.payload, sig: V.universe.sig });
  assert.ok(await verifyUniverseRequest(wire, V.identity.sign_key));
  const message = cat(utf8("agent-universe/1\n"), d(V.universe.payload));
  assert.deepEqual(e(ed25519.sign(message, d(V.identity.sign_seed))), V.universe.sig);
});
