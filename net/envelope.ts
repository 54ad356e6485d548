/**
 * Envelopes: the signed header (payload) plus sealed box that agents post to each
 * other's inboxes, and their wire form `{payload: b64u, sig: b64u}`.
 *
 * @module
 */

import { isAddress } from "./address.ts";
import { b64uEncode } from "./b64u.ts";
import { signPrefixed, utf8 } from "./_keys.ts";
import { isRecord, parseSignedWire, verifySignedWire } from "./_signed_wire.ts";
import type { Identity } from "./identity.ts";

/**
 * The envelope kinds: the spec's three, and `contact_removed` (the sender forgot the
 * contact; the receiver records it, so both sides know where they stand).
 */
export type EnvelopeKind = "contact_request" | "contact_accept" | "message" | "contact_removed";

/** Every envelope kind, in the spec's order. */
export const ENVELOPE_KINDS: readonly EnvelopeKind[] = Object.freeze([
  "contact_request",
  "contact_accept",
  "message",
  "contact_removed",
]);

/** Envelope ids: chosen by the sender, unique per sender. */
export const ENVELOPE_ID_PATTERN: RegExp = /^[A-Za-z0-9_-]{16,64}$/;

/** Largest inbox body in bytes. */
export const MAX_INBOX_BODY_BYTES = 65_536;

/** The signature domain prefix: `agent-net/1` and one LF byte. */
export const ENVELOPE_SIGNATURE_PREFIX = "agent-net/1\n";

const PREFIX_BYTES = utf8(ENVELOPE_SIGNATURE_PREFIX);

/** The sealed content of an envelope, each field b64u. */
export interface Box {
  /** The sender's ephemeral X25519 public key. */
  epk: string;
  /** The 12-byte ChaCha20-Poly1305 nonce. */
  nonce: string;
  /** Ciphertext with its 16-byte tag. */
  ct: string;
}

/** The signed header of an envelope (UTF-8 JSON, one object). */
export interface EnvelopePayload {
  /** Always 1. */
  v: 1;
  /** Envelope id, unique per sender, matching {@linkcode ENVELOPE_ID_PATTERN}. */
  id: string;
  /** What the envelope carries. */
  kind: EnvelopeKind;
  /** Sender address. */
  from: string;
  /** Recipient address. */
  to: string;
  /** Send time, integer Unix seconds. */
  ts: number;
  /** Id of the conversation's first envelope (a new conversation uses its own id). */
  thread: string;
  /** Id of the envelope this answers, or null. */
  reply_to: string | null;
  /** 0 for an envelope the owner started; a reply carries the incoming hops + 1. */
  hops: number;
  /** The sealed content. */
  box: Box;
}

/** An envelope on the wire (the body of `POST /net/inbox`). */
export interface WireEnvelope {
  /** b64u of the payload bytes. */
  payload: string;
  /** b64u of the Ed25519 signature over the prefix and the payload bytes. */
  sig: string;
}

/** A wire envelope whose shape {@linkcode parseWireEnvelope} accepted. */
export interface ParsedWireEnvelope {
  /** Always true. */
  ok: true;
  /** The wire form with unknown top-level keys dropped. */
  wire: WireEnvelope;
  /** The decoded payload (not yet authenticated). */
  payload: EnvelopePayload;
  /** The exact payload bytes the signature covers. */
  payloadBytes: Uint8Array;
}

/** The result of {@linkcode parseWireEnvelope}. */
export type ParsedEnvelope = ParsedWireEnvelope | { ok: false; detail: string };

/**
 * Checks the shape of a wire envelope (the inbox's `bad_request` rules): string
 * `payload` and `sig`, both valid b64u; the payload a UTF-8 JSON object with every
 * field of the right type; `v` 1; `kind` known; `from` an address; `id` matching the id
 * pattern; `hops` an integer at least 0. It does not check the signature, `to` or `ts`.
 * Unknown top-level keys are dropped from the returned `wire`.
 *
 * @example
 * ```ts
 * import { parseWireEnvelope } from "./envelope.ts";
 * const r = parseWireEnvelope({ payload: 1, sig: "" });
 * if (r.ok || r.detail !== "'payload' must be a string") throw new Error("wrong detail");
 * ```
 */
export function parseWireEnvelope(value: unknown): ParsedEnvelope {
  const wire = parseSignedWire(value);
  if (!wire.ok) return wire;
  const { payload, sig, payloadBytes, json: parsed } = wire;
  const problem = payloadProblem(parsed);
  if (problem !== undefined) return fail(problem);
  return {
    ok: true,
    wire: { payload, sig },
    payload: pickPayload(parsed as Record<string, unknown>),
    payloadBytes,
  };
}

/**
 * Parses an inbox body's text as JSON, then as {@linkcode parseWireEnvelope} does.
 */
export function parseWireEnvelopeText(text: string): ParsedEnvelope {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail("the body is not JSON");
  }
  return parseWireEnvelope(value);
}

/**
 * The first shape problem of a decoded payload as a sentence fragment, or `undefined`
 * when the payload is a well-formed {@linkcode EnvelopePayload}.
 */
export function payloadProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "the payload must be a JSON object";
  for (const field of PAYLOAD_FIELDS) {
    if (!(field in value)) return `the payload is missing '${field}'`;
  }
  if (value.v !== 1) return "payload 'v' must be 1";
  if (typeof value.id !== "string" || !ENVELOPE_ID_PATTERN.test(value.id)) {
    return "payload 'id' must match ^[A-Za-z0-9_-]{16,64}$";
  }
  if (!ENVELOPE_KINDS.includes(value.kind as EnvelopeKind)) {
    return "payload 'kind' must be contact_request, contact_accept, message or contact_removed";
  }
  if (!isAddress(value.from)) return "payload 'from' must be a valid address";
  if (typeof value.to !== "string") return "payload 'to' must be a string";
  if (!Number.isSafeInteger(value.ts)) return "payload 'ts' must be an integer";
  if (typeof value.thread !== "string") return "payload 'thread' must be a string";
  if (value.reply_to !== null && typeof value.reply_to !== "string") {
    return "payload 'reply_to' must be a string or null";
  }
  if (!Number.isSafeInteger(value.hops) || (value.hops as number) < 0) {
    return "payload 'hops' must be an integer at least 0";
  }
  const box = value.box;
  if (
    !isRecord(box) || typeof box.epk !== "string" || typeof box.nonce !== "string" ||
    typeof box.ct !== "string"
  ) {
    return "payload 'box' must be an object with string 'epk', 'nonce' and 'ct'";
  }
  return undefined;
}

const PAYLOAD_FIELDS = [
  "v",
  "id",
  "kind",
  "from",
  "to",
  "ts",
  "thread",
  "reply_to",
  "hops",
  "box",
] as const;

/**
 * Verifies a wire envelope's signature: Ed25519 over `agent-net/1\n` plus the exact
 * bytes decoded from `payload`. False for a bad signature, a wrong-length signature,
 * invalid b64u or an unusable key; never throws.
 *
 * @example
 * ```ts
 * import { generateIdentity, signEnvelope, verifyEnvelope } from "./mod.ts";
 * const me = await generateIdentity();
 * const wire = await signEnvelope({
 *   v: 1, id: "AAAAAAAAAAAAAAAA", kind: "message", from: "a.example", to: "b.example",
 *   ts: 1700000000, thread: "AAAAAAAAAAAAAAAA", reply_to: null, hops: 0,
 *   box: { epk: "", nonce: "", ct: "" },
 * }, me);
 * if (!await verifyEnvelope(wire, me.signKey)) throw new Error("should verify");
 * ```
 */
export async function verifyEnvelope(
  wire: WireEnvelope,
  signKey: Uint8Array | string,
): Promise<boolean> {
  return await verifySignedWire(PREFIX_BYTES, wire.payload, wire.sig, signKey);
}

/**
 * Verifies the signature of an envelope {@linkcode parseWireEnvelope} accepted, over
 * the payload bytes it already decoded. False for any bad input; never throws.
 */
export async function verifyParsedEnvelope(
  parsed: ParsedWireEnvelope,
  signKey: Uint8Array | string,
): Promise<boolean> {
  return await verifySignedWire(PREFIX_BYTES, parsed.payloadBytes, parsed.wire.sig, signKey);
}

/**
 * Serialises a payload as UTF-8 JSON and signs it with the identity's signing key.
 *
 * @throws {TypeError} when the payload is not well-formed (the same rules the inbox applies).
 */
export async function signEnvelope(
  payload: EnvelopePayload,
  identity: Identity,
): Promise<WireEnvelope> {
  const problem = payloadProblem(payload);
  if (problem !== undefined) throw new TypeError(`Cannot sign envelope: ${problem}`);
  const bytes = utf8(JSON.stringify(pickPayload(payload as unknown as Record<string, unknown>)));
  if (bytes.length > MAX_INBOX_BODY_BYTES) {
    throw new RangeError("Cannot sign envelope: the payload is larger than the inbox accepts");
  }
  const sig = await signPrefixed(PREFIX_BYTES, bytes, identity.signPrivateKey);
  return { payload: b64uEncode(bytes), sig: b64uEncode(sig) };
}

/**
 * A fresh random envelope id (22 b64u characters, 128 bits).
 *
 * @example
 * ```ts
 * import { ENVELOPE_ID_PATTERN, newEnvelopeId } from "./envelope.ts";
 * if (!ENVELOPE_ID_PATTERN.test(newEnvelopeId())) throw new Error("bad id");
 * ```
 */
export function newEnvelopeId(): string {
  return b64uEncode(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * A deterministic envelope id derived from `parts` (SHA-256, first 128 bits, b64u),
 * so that re-handling an envelope after a crash produces the same reply id.
 *
 * @example
 * ```ts
 * import { deriveEnvelopeId } from "./envelope.ts";
 * const a = await deriveEnvelopeId(["reply", "a.example", "AAAAAAAAAAAAAAAA"]);
 * const b = await deriveEnvelopeId(["reply", "a.example", "AAAAAAAAAAAAAAAA"]);
 * if (a !== b || a.length !== 22) throw new Error("not deterministic");
 * ```
 */
export async function deriveEnvelopeId(parts: readonly string[]): Promise<string> {
  // JSON keeps the parts apart, so ["a|b"] and ["a", "b"] cannot collide.
  const digest = await crypto.subtle.digest("SHA-256", utf8(JSON.stringify(parts)));
  return b64uEncode(new Uint8Array(digest, 0, 16));
}

function pickPayload(record: Record<string, unknown>): EnvelopePayload {
  const box = record.box as Record<string, unknown>;
  return {
    v: 1,
    id: record.id as string,
    kind: record.kind as EnvelopeKind,
    from: record.from as string,
    to: record.to as string,
    ts: record.ts as number,
    thread: record.thread as string,
    reply_to: record.reply_to as string | null,
    hops: record.hops as number,
    box: { epk: box.epk as string, nonce: box.nonce as string, ct: box.ct as string },
  };
}

function fail(detail: string): { ok: false; detail: string } {
  return { ok: false, detail };
}
