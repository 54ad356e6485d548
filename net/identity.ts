/**
 * An agent's identity: an Ed25519 signing key and an X25519 box key, each from a
 * 32-byte seed, stored as `{v: 1, sign_seed, box_seed}`.
 *
 * @module
 */

import { b64uDecode, b64uDecodeLength, b64uEncode } from "./b64u.ts";
import { importPrivate } from "./_keys.ts";

/** The stored form of an identity (`identity.json`, and `AGENT_NET_IDENTITY` once decoded). */
export interface IdentityJson {
  /** Always 1. */
  v: 1;
  /** b64u of the 32-byte Ed25519 seed. */
  sign_seed: string;
  /** b64u of the 32-byte X25519 private key. */
  box_seed: string;
}

/** A loaded identity: seeds, public keys and the imported private CryptoKeys. */
export interface Identity {
  /** The 32-byte Ed25519 seed. */
  readonly signSeed: Uint8Array;
  /** The 32-byte X25519 private key. */
  readonly boxSeed: Uint8Array;
  /** The card's `sign_key`: b64u of the raw Ed25519 public key. */
  readonly signKey: string;
  /** The card's `box_key`: b64u of the raw X25519 public key. */
  readonly boxKey: string;
  /** The raw 32-byte Ed25519 public key. */
  readonly signKeyBytes: Uint8Array;
  /** The raw 32-byte X25519 public key. */
  readonly boxKeyBytes: Uint8Array;
  /** The Ed25519 private key (non-extractable), for signing. */
  readonly signPrivateKey: CryptoKey;
  /** The X25519 private key (non-extractable), for opening boxes. */
  readonly boxPrivateKey: CryptoKey;
}

/**
 * Builds an identity from its two 32-byte seeds.
 *
 * @throws {RangeError} when a seed is not 32 bytes.
 */
export async function identityFromSeeds(
  signSeed: Uint8Array,
  boxSeed: Uint8Array,
): Promise<Identity> {
  if (signSeed.length !== 32 || boxSeed.length !== 32) {
    throw new RangeError("Cannot load identity: a seed is not 32 bytes");
  }
  const [sign, box] = await Promise.all([
    importPrivate(signSeed, "Ed25519"),
    importPrivate(boxSeed, "X25519"),
  ]);
  return Object.freeze({
    signSeed: signSeed.slice(),
    boxSeed: boxSeed.slice(),
    signKey: b64uEncode(sign.publicKey),
    boxKey: b64uEncode(box.publicKey),
    signKeyBytes: sign.publicKey,
    boxKeyBytes: box.publicKey,
    signPrivateKey: sign.privateKey,
    boxPrivateKey: box.privateKey,
  });
}

/**
 * Generates a fresh identity from 64 random bytes.
 *
 * @example
 * ```ts
 * import { generateIdentity } from "./identity.ts";
 * const id = await generateIdentity();
 * if (id.signKey.length !== 43 || id.boxKey.length !== 43) throw new Error("bad keys");
 * ```
 */
export function generateIdentity(): Promise<Identity> {
  return identityFromSeeds(
    crypto.getRandomValues(new Uint8Array(32)),
    crypto.getRandomValues(new Uint8Array(32)),
  );
}

/**
 * Loads an identity from its JSON form: the parsed object or the JSON text.
 *
 * @throws {TypeError} when the value is not `{v: 1, sign_seed, box_seed}` with 32-byte seeds.
 * @example
 * ```ts
 * import { generateIdentity, identityFromJson, identityToJson } from "./identity.ts";
 * const a = await generateIdentity();
 * const b = await identityFromJson(JSON.stringify(identityToJson(a)));
 * if (a.signKey !== b.signKey) throw new Error("round trip failed");
 * ```
 */
export function identityFromJson(json: unknown): Promise<Identity> {
  let value = json;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return Promise.reject(new TypeError("Cannot load identity: the text is not JSON"));
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return Promise.reject(new TypeError("Cannot load identity: not a JSON object"));
  }
  const record = value as Record<string, unknown>;
  if (record.v !== 1) {
    return Promise.reject(new TypeError("Cannot load identity: 'v' is not 1"));
  }
  const signSeed = b64uDecodeLength(record.sign_seed, 32);
  if (signSeed === undefined) {
    return Promise.reject(
      new TypeError("Cannot load identity: 'sign_seed' is not b64u of 32 bytes"),
    );
  }
  const boxSeed = b64uDecodeLength(record.box_seed, 32);
  if (boxSeed === undefined) {
    return Promise.reject(
      new TypeError("Cannot load identity: 'box_seed' is not b64u of 32 bytes"),
    );
  }
  return identityFromSeeds(signSeed, boxSeed);
}

/** The stored JSON form of an identity (holds the private seeds: keep it secret). */
export function identityToJson(identity: Identity): IdentityJson {
  return { v: 1, sign_seed: b64uEncode(identity.signSeed), box_seed: b64uEncode(identity.boxSeed) };
}

/**
 * Loads an identity from `AGENT_NET_IDENTITY`: the identity JSON, base64url-encoded
 * (with or without padding).
 *
 * @throws {TypeError} when the value is not b64u of a valid identity JSON.
 */
export function identityFromEnv(b64uJson: string): Promise<Identity> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(b64uDecode(b64uJson.trim()));
  } catch {
    return Promise.reject(
      new TypeError("Cannot load identity: AGENT_NET_IDENTITY is not base64url-encoded JSON"),
    );
  }
  return identityFromJson(text);
}

/** Encodes an identity for `AGENT_NET_IDENTITY` (b64u of its JSON text). */
export function identityToEnv(identity: Identity): string {
  return b64uEncode(new TextEncoder().encode(JSON.stringify(identityToJson(identity))));
}
