/**
 * The outer layer shared by envelopes and universe requests: a JSON body
 * `{payload: <b64u>, sig: <b64u>}` whose payload bytes are UTF-8 JSON. Checks the
 * shape in a fixed order and says what is wrong first; the signature itself is
 * checked by the caller, over the exact payload bytes returned here.
 *
 * @module
 */
import { b64uDecode } from "./b64u.ts";
import { verifyPrefixed } from "./_keys.ts";

/** A signed wire body whose outer layer is well formed. */
export interface SignedWire {
  ok: true;
  payload: string;
  sig: string;
  /** The exact bytes the signature covers (after the domain prefix). */
  payloadBytes: Uint8Array;
  /** The payload parsed as JSON (any value; the caller checks its shape). */
  json: unknown;
}

/** Options for {@linkcode parseSignedWire}. */
export interface ParseSignedWireOptions {
  /** Largest payload in bytes, checked before the payload is parsed. */
  maxPayloadBytes?: number;
  /** The sentence for a payload above {@linkcode maxPayloadBytes}. */
  tooLarge?: string;
}

const DECODER = new TextDecoder("utf-8", { fatal: true });

/** Checks the outer layer of a signed wire body; the first problem wins. */
export function parseSignedWire(
  value: unknown,
  options: ParseSignedWireOptions = {},
): SignedWire | { ok: false; detail: string } {
  if (!isRecord(value)) return fail("the body must be a JSON object");
  const { payload, sig } = value;
  if (payload === undefined) return fail("'payload' is missing");
  if (typeof payload !== "string") return fail("'payload' must be a string");
  if (sig === undefined) return fail("'sig' is missing");
  if (typeof sig !== "string") return fail("'sig' must be a string");
  let payloadBytes: Uint8Array;
  try {
    payloadBytes = b64uDecode(payload);
  } catch {
    return fail("'payload' is not valid base64url");
  }
  try {
    b64uDecode(sig);
  } catch {
    return fail("'sig' is not valid base64url");
  }
  if (options.maxPayloadBytes !== undefined && payloadBytes.length > options.maxPayloadBytes) {
    return fail(options.tooLarge ?? "the payload is too large");
  }
  let json: unknown;
  try {
    json = JSON.parse(DECODER.decode(payloadBytes));
  } catch {
    return fail("the payload is not UTF-8 JSON");
  }
  return { ok: true, payload, sig, payloadBytes, json };
}

/** Whether `value` is a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(detail: string): { ok: false; detail: string } {
  return { ok: false, detail };
}

/**
 * Verifies `sig` (base64url) over `prefix` + the payload: the payload as its decoded
 * bytes or as the wire's base64url text. False for any bad input; never throws.
 */
export async function verifySignedWire(
  prefix: Uint8Array,
  payload: Uint8Array | string,
  sig: string,
  signKey: Uint8Array | string,
): Promise<boolean> {
  let payloadBytes: Uint8Array;
  let sigBytes: Uint8Array;
  try {
    payloadBytes = typeof payload === "string" ? b64uDecode(payload) : payload;
    sigBytes = b64uDecode(sig);
  } catch {
    return false;
  }
  return await verifyPrefixed(prefix, payloadBytes, sigBytes, signKey);
}
