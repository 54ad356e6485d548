// The four primitives under the protocol's doors, each in one place so the box, the
// envelope and the Wycheproof vectors (tests/vectors/) run the same code: X25519 with
// the all-zero secret refused, HKDF-SHA256, ChaCha20-Poly1305 with a 12-byte nonce, and
// Ed25519 verification.

import { chacha20poly1305 } from "@noble/ciphers/chacha.js";
import { buffered, importPrivate, verifyPrefixed } from "./_keys.ts";

const NO_PREFIX = new Uint8Array(0);

/**
 * X25519(private, peer public) through Web Crypto. Throws a `RangeError` for an all-zero
 * shared secret (a small-order peer key) and whatever Web Crypto throws for a key it
 * cannot use.
 */
export async function x25519Shared(
  privateKey: CryptoKey,
  peerPublic: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const peer = await crypto.subtle.importKey(
    "raw",
    buffered(peerPublic),
    { name: "X25519" },
    true,
    [],
  );
  const shared = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "X25519", public: peer }, privateKey, 256),
  );
  let zero = 0;
  for (const b of shared) zero |= b;
  if (zero === 0) throw new RangeError("the X25519 shared secret is all zero");
  return shared;
}

/** {@linkcode x25519Shared} from a raw 32-byte private scalar (clamped as RFC 7748 says). */
export async function x25519SharedFromSeed(
  seed: Uint8Array,
  peerPublic: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const { privateKey } = await importPrivate(seed, "X25519");
  return await x25519Shared(privateKey, peerPublic);
}

/**
 * HKDF-SHA256 (RFC 5869) through Web Crypto: `length` bytes of output keying material.
 * Throws a `RangeError` past 255 × 32 bytes.
 */
export async function hkdfSha256(
  ikm: Uint8Array,
  salt: Uint8Array,
  info: Uint8Array,
  length: number,
): Promise<Uint8Array<ArrayBuffer>> {
  if (!Number.isInteger(length) || length < 0 || length > 255 * 32) {
    throw new RangeError("Cannot derive a key: HKDF-SHA256 gives 0 to 8160 bytes");
  }
  const key = await crypto.subtle.importKey("raw", buffered(ikm), "HKDF", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: buffered(salt), info: buffered(info) },
    key,
    length * 8,
  );
  return new Uint8Array(bits);
}

function aead(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array) {
  if (key.length !== 32) throw new RangeError("ChaCha20-Poly1305: the key is not 32 bytes");
  if (nonce.length !== 12) throw new RangeError("ChaCha20-Poly1305: the nonce is not 12 bytes");
  return chacha20poly1305(key, nonce, aad);
}

/** ChaCha20-Poly1305 (RFC 8439) encryption: ciphertext followed by the 16-byte tag. */
export function aeadSeal(
  key: Uint8Array,
  nonce: Uint8Array,
  aad: Uint8Array,
  plaintext: Uint8Array,
): Uint8Array {
  return aead(key, nonce, aad).encrypt(plaintext);
}

/** ChaCha20-Poly1305 decryption; throws when the tag does not authenticate. */
export function aeadOpen(
  key: Uint8Array,
  nonce: Uint8Array,
  aad: Uint8Array,
  sealed: Uint8Array,
): Uint8Array {
  return aead(key, nonce, aad).decrypt(sealed);
}

/** Ed25519 verification of `signature` over `message` (no prefix); false when malformed. */
export function ed25519Verify(
  message: Uint8Array,
  signature: Uint8Array,
  publicKey: Uint8Array,
): Promise<boolean> {
  return verifyPrefixed(NO_PREFIX, message, signature, publicKey);
}
