import assert from "node:assert/strict";
import { ed25519, ED25519_TORSION_SUBGROUP, x25519 } from "@noble/curves/ed25519.js";
import { b64uEncode } from "./b64u.ts";
import { generateIdentity } from "./identity.ts";
import {
  canonicalKey,
  checkCardKey,
  isSmallOrderEd25519,
  isSmallOrderX25519,
  sameKey,
} from "./key_check.ts";

const P = 2n ** 255n - 19n;

function le(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
}

function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g)!.map((b) => parseInt(b, 16)));
}

// Every encoding of each torsion point: canonical, with y + p where it still fits in
// 255 bits, and each with the sign bit set or clear.
function torsionEncodings(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const hex of ED25519_TORSION_SUBGROUP) {
    const bytes = fromHex(hex);
    let y = 0n;
    for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? bytes[i]! & 0x7f : bytes[i]!);
    for (const value of [y, y + P]) {
      if (value >= 2n ** 255n) continue;
      for (const sign of [0, 0x80]) {
        const e = le(value);
        e[31] = e[31]! | sign;
        out.push(e);
      }
    }
  }
  return out;
}

Deno.test("isSmallOrderEd25519() refuses every encoding of every torsion point", () => {
  const encodings = torsionEncodings();
  assert.ok(encodings.length >= 16);
  for (const e of encodings) {
    // noble decodes it (ZIP-215 takes non-canonical y) and agrees it is small-order.
    let small = true;
    try {
      small = ed25519.Point.fromBytes(e, true).isSmallOrder();
    } catch {
      // x = 0 with the sign bit set does not decode; refusing it anyway is harmless.
    }
    assert.ok(small);
    assert.ok(isSmallOrderEd25519(e), b64uEncode(e));
  }
});

Deno.test("isSmallOrderX25519() refuses every u whose shared secret is zero", () => {
  const scalar = x25519.utils.randomSecretKey();
  const small = [0n, 1n, P - 1n, P, P + 1n];
  for (const hex of ED25519_TORSION_SUBGROUP) {
    // The identity has no u (it is the point at infinity, 0 on the wire): already listed.
    if (ed25519.Point.fromHex(hex).equals(ed25519.Point.ZERO)) continue;
    const u = ed25519.utils.toMontgomery(fromHex(hex));
    let n = 0n;
    for (let i = 31; i >= 0; i--) n = (n << 8n) | BigInt(u[i]!);
    small.push(n);
  }
  for (const n of small) {
    for (const top of [0, 0x80]) {
      const u = le(n);
      u[31] = u[31]! | top;
      assert.ok(isSmallOrderX25519(u), b64uEncode(u));
      assert.throws(() => x25519.scalarMult(scalar, u));
    }
  }
});

Deno.test("isSmallOrder*() pass real keys", async () => {
  for (let i = 0; i < 50; i++) {
    const id = await generateIdentity();
    assert.equal(isSmallOrderEd25519(id.signKeyBytes), false);
    assert.equal(isSmallOrderX25519(id.boxKeyBytes), false);
  }
  assert.equal(isSmallOrderEd25519(new Uint8Array(31)), false);
});

Deno.test("canonicalKey() and sameKey() read keys as bytes", () => {
  const key = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
  assert.equal(canonicalKey(key), key);
  assert.equal(canonicalKey(key + "="), key);
  assert.equal(canonicalKey(key.slice(1)), undefined);
  assert.equal(canonicalKey(7), undefined);
  assert.ok(sameKey(key, key + "="));
  assert.ok(sameKey(key + "=", key + "="));
  assert.ok(!sameKey(key, "A".repeat(43)));
  assert.ok(sameKey("AAAA", "AAAA"));
  assert.ok(!sameKey("AAAA", "AAAA=="));
});

Deno.test("checkCardKey() returns the canonical key or why it is refused", () => {
  const key = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
  assert.deepEqual(checkCardKey("sign_key", key + "="), { key });
  assert.deepEqual(checkCardKey("box_key", "AAAA"), { refused: "shape" });
  assert.deepEqual(checkCardKey("box_key", "A".repeat(43)), { refused: "small_order" });
  assert.deepEqual(checkCardKey("sign_key", "A".repeat(43)), { refused: "small_order" });
});
