// Web Crypto key handling shared by identities, envelopes, boxes and universe requests.

import { b64uDecode } from "./b64u.ts";

// PKCS#8 DER for a 32-byte Ed25519 / X25519 private key (RFC 8410): the fixed header
// before the seed; only the algorithm OID's last byte differs (112 = Ed25519, 110 = X25519).
const PKCS8_PREFIX = [48, 46, 2, 1, 0, 48, 5, 6, 3, 43, 101, 0, 4, 34, 4, 32];

/** Wraps a 32-byte private seed in PKCS#8 DER for `crypto.subtle.importKey("pkcs8", ...)`. */
export function pkcs8For(
  seed: Uint8Array,
  algorithm: "Ed25519" | "X25519",
): Uint8Array<ArrayBuffer> {
  if (seed.length !== 32) throw new RangeError("Cannot import key: the seed is not 32 bytes");
  const der = new Uint8Array(48);
  der.set(PKCS8_PREFIX);
  der[11] = algorithm === "Ed25519" ? 112 : 110;
  der.set(seed, 16);
  return der;
}

/** Imports a private seed and reads its raw public key (through the JWK `x` member). */
export async function importPrivate(
  seed: Uint8Array,
  algorithm: "Ed25519" | "X25519",
): Promise<{ privateKey: CryptoKey; publicKey: Uint8Array }> {
  const der = pkcs8For(seed, algorithm);
  const usages: KeyUsage[] = algorithm === "Ed25519" ? ["sign"] : ["deriveBits"];
  const extractable = await crypto.subtle.importKey(
    "pkcs8",
    der,
    { name: algorithm },
    true,
    usages,
  );
  const jwk = await crypto.subtle.exportKey("jwk", extractable);
  if (typeof jwk.x !== "string") throw new TypeError("Cannot import key: no public key");
  const publicKey = b64uDecode(jwk.x);
  // Keep only a non-extractable handle so the seed cannot leak through the CryptoKey.
  const privateKey = await crypto.subtle.importKey(
    "pkcs8",
    der,
    { name: algorithm },
    false,
    usages,
  );
  der.fill(0);
  return { privateKey, publicKey };
}

// Imported Ed25519 public keys by their b64u text: a hub verifies many envelopes from
// few peers, and importing dominates the cost of one verification otherwise.
const VERIFY_KEYS = new Map<string, Promise<CryptoKey | undefined>>();
const VERIFY_KEYS_MAX = 512;

/** The Ed25519 verify key for a raw 32-byte public key; `undefined` when it is unusable. */
export function verifyKeyFor(signKey: Uint8Array | string): Promise<CryptoKey | undefined> {
  let text: string;
  let raw: Uint8Array | undefined;
  if (typeof signKey === "string") {
    text = signKey;
  } else {
    raw = signKey;
    text = bytesKey(signKey);
  }
  const cached = VERIFY_KEYS.get(text);
  if (cached !== undefined) return cached;
  const imported = importVerifyKey(raw ?? decodeOrUndefined(text));
  if (VERIFY_KEYS.size >= VERIFY_KEYS_MAX) {
    const oldest = VERIFY_KEYS.keys().next().value;
    if (oldest !== undefined) VERIFY_KEYS.delete(oldest);
  }
  VERIFY_KEYS.set(text, imported);
  return imported;
}

async function importVerifyKey(raw: Uint8Array | undefined): Promise<CryptoKey | undefined> {
  if (raw === undefined || raw.length !== 32) return undefined;
  try {
    return await crypto.subtle.importKey("raw", buffered(raw), { name: "Ed25519" }, false, [
      "verify",
    ]);
  } catch {
    return undefined;
  }
}

function decodeOrUndefined(text: string): Uint8Array | undefined {
  try {
    return b64uDecode(text);
  } catch {
    return undefined;
  }
}

// A cache key for raw bytes that cannot collide with valid b64u text (which never has "!").
function bytesKey(bytes: Uint8Array): string {
  let s = "!";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/**
 * Web Crypto wants `Uint8Array<ArrayBuffer>`; bytes from callers are typed with
 * `ArrayBufferLike` but never come from a SharedArrayBuffer here.
 */
export function buffered(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes as Uint8Array<ArrayBuffer>;
}

/** Concatenates byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const ENCODER = new TextEncoder();

/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return ENCODER.encode(text);
}

/** Verifies an Ed25519 signature over `prefix + message`; false for any malformed input. */
export async function verifyPrefixed(
  prefix: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
  signKey: Uint8Array | string,
): Promise<boolean> {
  if (signature.length !== 64) return false;
  const key = await verifyKeyFor(signKey);
  if (key === undefined) return false;
  try {
    return await crypto.subtle.verify(
      "Ed25519",
      key,
      buffered(signature),
      concatBytes(prefix, message),
    );
  } catch {
    return false;
  }
}

/** Signs `prefix + message` with an Ed25519 private key. */
export async function signPrefixed(
  prefix: Uint8Array,
  message: Uint8Array,
  privateKey: CryptoKey,
): Promise<Uint8Array> {
  const sig = await crypto.subtle.sign("Ed25519", privateKey, concatBytes(prefix, message));
  return new Uint8Array(sig);
}
