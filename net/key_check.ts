/**
 * Public-key hygiene for cards: a key is kept in one canonical spelling (b64u without
 * padding), compared as bytes, and refused when it is a small-order point. RFC 8032 lets
 * an Ed25519 key be a small-order point, but such a key verifies one signature for many
 * messages, and a small-order X25519 key makes every shared secret zero; no honest agent
 * publishes one. The spine (`PUT /hub/card`, sender cards) and the hub (fetched cards)
 * both check here.
 *
 * @module
 */

import { b64uDecode, b64uEncode } from "./b64u.ts";

function hex(text: string): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const FF30 = "ff".repeat(30);

// Every encoding of an Ed25519 point of order 1, 2, 4 or 8, the sign bit (bit 255)
// cleared: y = 0, 1, p - 1, the two order-8 y values, and the non-canonical p and p + 1
// (the list libsodium's crypto_core_ed25519_is_valid_point refuses).
const ED25519_SMALL = [
  "00".repeat(32),
  "01" + "00".repeat(31),
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "ec" + FF30 + "7f",
  "ed" + FF30 + "7f",
  "ee" + FF30 + "7f",
].map(hex);

// Every u-coordinate of an X25519 point of small order, bit 255 cleared (X25519 ignores
// it): 0, 1, the two order-8 u values, p - 1, and the non-canonical p and p + 1.
const X25519_SMALL = [
  "00".repeat(32),
  "01" + "00".repeat(31),
  "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
  "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
  "ec" + FF30 + "7f",
  "ed" + FF30 + "7f",
  "ee" + FF30 + "7f",
].map(hex);

function onList(key: Uint8Array, list: readonly Uint8Array[]): boolean {
  if (key.length !== 32) return false;
  return list.some((bad) => {
    let diff = (key[31]! & 0x7f) ^ bad[31]!;
    for (let i = 0; i < 31; i++) diff |= key[i]! ^ bad[i]!;
    return diff === 0;
  });
}

/**
 * Whether a raw 32-byte Ed25519 public key is a point of small order (the identity,
 * or a point of order 2, 4 or 8, in any encoding).
 *
 * @example
 * ```ts
 * import { isSmallOrderEd25519 } from "./key_check.ts";
 * const identity = new Uint8Array(32);
 * identity[0] = 1;
 * if (!isSmallOrderEd25519(identity)) throw new Error("the identity point is small-order");
 * ```
 */
export function isSmallOrderEd25519(key: Uint8Array): boolean {
  return onList(key, ED25519_SMALL);
}

/**
 * Whether a raw 32-byte X25519 public key is a point of small order (all zero among
 * them): every shared secret with it is zero.
 *
 * @example
 * ```ts
 * import { isSmallOrderX25519 } from "./key_check.ts";
 * if (!isSmallOrderX25519(new Uint8Array(32))) throw new Error("all zero is small-order");
 * ```
 */
export function isSmallOrderX25519(key: Uint8Array): boolean {
  return onList(key, X25519_SMALL);
}

/**
 * A card key's canonical spelling: the b64u text decoded (padding accepted) and encoded
 * again without padding. `undefined` when it is not b64u of 32 bytes.
 *
 * @example
 * ```ts
 * import { canonicalKey } from "./key_check.ts";
 * const key = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
 * if (canonicalKey(key + "=") !== key) throw new Error("padding kept");
 * ```
 */
export function canonicalKey(text: unknown): string | undefined {
  const bytes = keyBytes(text);
  return bytes === undefined ? undefined : b64uEncode(bytes);
}

/**
 * Whether two b64u key texts name the same 32 bytes (padded or not). Texts that are not
 * b64u of 32 bytes are compared as text.
 *
 * @example
 * ```ts
 * import { sameKey } from "./key_check.ts";
 * const key = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
 * if (!sameKey(key, key + "=")) throw new Error("padding changed the key");
 * ```
 */
export function sameKey(a: string, b: string): boolean {
  if (a === b) return true;
  const x = keyBytes(a);
  const y = keyBytes(b);
  if (x === undefined || y === undefined) return false;
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

/**
 * Checks one key of a card: b64u of 32 bytes (padding accepted) and not a small-order
 * point. Returns the canonical text, or why it is refused: `"shape"` or `"small_order"`.
 */
export function checkCardKey(
  field: "sign_key" | "box_key",
  text: unknown,
): { key: string } | { refused: "shape" | "small_order" } {
  const bytes = keyBytes(text);
  if (bytes === undefined) return { refused: "shape" };
  const small = field === "sign_key" ? isSmallOrderEd25519(bytes) : isSmallOrderX25519(bytes);
  return small ? { refused: "small_order" } : { key: b64uEncode(bytes) };
}

function keyBytes(text: unknown): Uint8Array | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const bytes = b64uDecode(text);
    return bytes.length === 32 ? bytes : undefined;
  } catch {
    return undefined;
  }
}
