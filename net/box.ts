/**
 * Sealing and opening envelope boxes: X25519 with a fresh ephemeral key, HKDF-SHA256,
 * ChaCha20-Poly1305 with the envelope header as associated data.
 *
 * @module
 */

import { b64uDecode, b64uEncode } from "./b64u.ts";
import { aeadOpen, aeadSeal, hkdfSha256, x25519Shared } from "./_primitives.ts";
import type { Box, EnvelopeKind } from "./envelope.ts";
import type { Identity } from "./identity.ts";
import { concatBytes, importPrivate, utf8 } from "./_keys.ts";
import { parsePlaintext, type Plaintext, type PlaintextFor } from "./plaintext.ts";

/** The envelope header fields a box is bound to (its associated data). */
export interface BoxHeader<K extends EnvelopeKind = EnvelopeKind> {
  /** Envelope id. */
  id: string;
  /** Envelope kind; it also selects the plaintext schema. */
  kind: K;
  /** Sender address. */
  from: string;
  /** Recipient address. */
  to: string;
}

/** Options for {@linkcode sealBox}; only test vectors fix these. */
export interface SealOptions {
  /** The ephemeral X25519 private key. @default 32 fresh random bytes */
  ephemeralSeed?: Uint8Array;
  /** The 12-byte nonce. @default 12 fresh random bytes */
  nonce?: Uint8Array;
}

/** A box that cannot be opened: malformed, not authentic, or content that breaks its schema. */
export class OpenError extends Error {
  /** Creates an `OpenError` with `Cannot open box: <detail>`. */
  constructor(detail: string, options?: ErrorOptions) {
    super(`Cannot open box: ${detail}`, options);
    this.name = "OpenError";
  }
}

/** HKDF `info` for the box key. */
export const BOX_INFO = "agent-net/1 box";

const INFO_BYTES = utf8(BOX_INFO);
const DECODER = new TextDecoder("utf-8", { fatal: true });

/**
 * The associated data of a box: UTF-8 of `agent-net/1|<id>|<kind>|<from>|<to>`.
 *
 * @example
 * ```ts
 * import { boxAssociatedData } from "./box.ts";
 * const ad = boxAssociatedData({ id: "AAAAAAAAAAAAAAAA", kind: "message", from: "a", to: "b" });
 * if (new TextDecoder().decode(ad) !== "agent-net/1|AAAAAAAAAAAAAAAA|message|a|b") throw new Error();
 * ```
 */
export function boxAssociatedData(header: BoxHeader): Uint8Array<ArrayBuffer> {
  return utf8(`agent-net/1|${header.id}|${header.kind}|${header.from}|${header.to}`);
}

/**
 * Seals a plaintext for a recipient's `box_key` (the five sealing steps). The plaintext
 * is checked against the schema of `header.kind` first and only its known keys are sealed.
 *
 * @throws {TypeError} when the plaintext breaks its schema or the recipient key is unusable.
 * @throws {RangeError} when a message text is longer than 8 000 characters.
 */
export async function sealBox<K extends EnvelopeKind>(
  plaintext: PlaintextFor<K> | object,
  header: BoxHeader<K>,
  recipientBoxKey: Uint8Array | string,
  options: SealOptions = {},
): Promise<Box> {
  const clean = parsePlaintext(header.kind, plaintext);
  const recipient = typeof recipientBoxKey === "string"
    ? decodeKey(recipientBoxKey)
    : recipientBoxKey;
  if (recipient === undefined || recipient.length !== 32) {
    throw new TypeError("Cannot seal box: the recipient's box_key is not 32 bytes");
  }
  // Step 1: a fresh X25519 pair, shared = X25519(esk, recipient box_key).
  let ephemeral: { privateKey: CryptoKey; publicKey: Uint8Array };
  if (options.ephemeralSeed !== undefined) {
    ephemeral = await importPrivate(options.ephemeralSeed, "X25519");
  } else {
    const pair = await crypto.subtle.generateKey({ name: "X25519" }, false, ["deriveBits"]);
    const { privateKey, publicKey } = pair as CryptoKeyPair;
    ephemeral = {
      privateKey,
      publicKey: new Uint8Array(await crypto.subtle.exportKey("raw", publicKey)),
    };
  }
  let key: Uint8Array;
  try {
    key = await boxKey(ephemeral.privateKey, recipient, ephemeral.publicKey, recipient);
  } catch (cause) {
    throw new TypeError("Cannot seal box: the recipient's box_key is unusable", { cause });
  }
  // Step 3: nonce and associated data; step 4: ChaCha20-Poly1305.
  const nonce = options.nonce ?? crypto.getRandomValues(new Uint8Array(12));
  if (nonce.length !== 12) throw new RangeError("Cannot seal box: the nonce is not 12 bytes");
  const ct = aeadSeal(key, nonce, boxAssociatedData(header), utf8(JSON.stringify(clean)));
  key.fill(0);
  // Step 5.
  return { epk: b64uEncode(ephemeral.publicKey), nonce: b64uEncode(nonce), ct: b64uEncode(ct) };
}

/**
 * Opens a box addressed to `identity`, checks the plaintext against the schema of
 * `header.kind` and returns only its known keys.
 *
 * @throws {OpenError} for malformed fields, a low-order ephemeral key (all-zero shared
 * secret), a box that does not authenticate (wrong key, header or ciphertext), content
 * that is not UTF-8 JSON, or content that breaks its schema (a bad `sub` included).
 */
export async function openBox<K extends EnvelopeKind>(
  box: Box,
  header: BoxHeader<K>,
  identity: Identity,
): Promise<PlaintextFor<K>>;
export async function openBox(
  box: Box,
  header: BoxHeader,
  identity: Identity,
): Promise<Plaintext> {
  return finishOpen(await prepareOpen(box, identity), header);
}

/** A box whose key is derived but whose ciphertext is not yet decrypted. */
export interface PreparedBox {
  /** The ChaCha20-Poly1305 key. */
  key: Uint8Array;
  /** The 12-byte nonce. */
  nonce: Uint8Array;
  /** Ciphertext and tag. */
  ct: Uint8Array;
}

/**
 * The expensive half of {@linkcode openBox}: decodes the box and derives its key
 * (X25519, all-zero check, HKDF). It reveals nothing until {@linkcode finishOpen}
 * authenticates the ciphertext, so it may run alongside the signature check.
 *
 * @throws {OpenError} for malformed fields or an unusable (low-order) ephemeral key.
 */
export async function prepareOpen(box: Box, identity: Identity): Promise<PreparedBox> {
  if (typeof box !== "object" || box === null) throw new OpenError("the box is not an object");
  const epk = decodeKey(box.epk);
  if (epk === undefined || epk.length !== 32) {
    throw new OpenError("'epk' is not b64u of 32 bytes");
  }
  const nonce = decodeKey(box.nonce);
  if (nonce === undefined || nonce.length !== 12) {
    throw new OpenError("'nonce' is not b64u of 12 bytes");
  }
  const ct = decodeKey(box.ct);
  if (ct === undefined || ct.length < 16) {
    throw new OpenError("'ct' is not b64u of at least 16 bytes");
  }
  try {
    return { key: await boxKey(identity.boxPrivateKey, epk, epk, identity.boxKeyBytes), nonce, ct };
  } catch (cause) {
    throw new OpenError("the ephemeral key is unusable", { cause });
  }
}

/**
 * The cheap half of {@linkcode openBox}: authenticates and decrypts with the header as
 * associated data, then checks the plaintext against the schema of `header.kind`.
 *
 * @throws {OpenError} when the box does not authenticate or its content is malformed.
 */
export function finishOpen<K extends EnvelopeKind>(
  prepared: PreparedBox,
  header: BoxHeader<K>,
): PlaintextFor<K>;
export function finishOpen(prepared: PreparedBox, header: BoxHeader): Plaintext {
  let plain: Uint8Array;
  try {
    plain = aeadOpen(prepared.key, prepared.nonce, boxAssociatedData(header), prepared.ct);
  } catch (cause) {
    throw new OpenError("the box does not authenticate", { cause });
  } finally {
    prepared.key.fill(0);
  }
  let value: unknown;
  try {
    value = JSON.parse(DECODER.decode(plain));
  } catch (cause) {
    throw new OpenError("the content is not UTF-8 JSON", { cause });
  }
  try {
    return parsePlaintext(header.kind, value);
  } catch (cause) {
    throw new OpenError(`the content is malformed (${(cause as Error).message})`, { cause });
  }
}

// Steps 1 and 2: X25519, reject an all-zero shared secret, then HKDF-SHA256 with
// salt = epk || recipient box_key and info = "agent-net/1 box".
async function boxKey(
  privateKey: CryptoKey,
  peerPublic: Uint8Array,
  epk: Uint8Array,
  recipient: Uint8Array,
): Promise<Uint8Array> {
  const shared = await x25519Shared(privateKey, peerPublic);
  try {
    return await hkdfSha256(shared, concatBytes(epk, recipient), INFO_BYTES, 32);
  } finally {
    shared.fill(0);
  }
}

function decodeKey(text: unknown): Uint8Array | undefined {
  if (typeof text !== "string") return undefined;
  try {
    return b64uDecode(text);
  } catch {
    return undefined;
  }
}
