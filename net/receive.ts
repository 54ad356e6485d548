/**
 * The hub's receiving step in one call: check the signature and open the box, with the
 * signature check and the box's key derivation running side by side. Nothing of the
 * box is decrypted or parsed unless the signature holds.
 *
 * @module
 */

import { finishOpen, OpenError, prepareOpen } from "./box.ts";
import { type EnvelopePayload, type ParsedWireEnvelope, verifyParsedEnvelope } from "./envelope.ts";
import type { Identity } from "./identity.ts";
import type { Plaintext } from "./plaintext.ts";

/** The result of {@linkcode verifyAndOpen}. */
export type OpenedEnvelope =
  | { ok: true; payload: EnvelopePayload; plaintext: Plaintext }
  | { ok: false; reason: "bad_signature" }
  | { ok: false; reason: "unopenable"; error: OpenError };

/** One envelope for {@linkcode verifyAndOpenAll}: the parsed envelope and the sender's key. */
export interface EnvelopeToOpen {
  /** An envelope {@linkcode parseWireEnvelope} accepted. */
  parsed: ParsedWireEnvelope;
  /** The sender's `sign_key` (pinned, or from a freshly fetched card). */
  signKey: Uint8Array | string;
}

/**
 * Verifies an envelope's signature with the sender's key, then opens its box for
 * `identity`. The box key is derived while the signature is checked; the ciphertext is
 * authenticated, decrypted and parsed only after the signature holds.
 *
 * @example
 * ```ts
 * import {
 *   generateIdentity, parseWireEnvelope, sealBox, signEnvelope, verifyAndOpen,
 * } from "./mod.ts";
 * const alice = await generateIdentity();
 * const bob = await generateIdentity();
 * const header = {
 *   id: "AAAAAAAAAAAAAAAA", kind: "message", from: "a.example", to: "b.example",
 * } as const;
 * const box = await sealBox({ text: "hi" }, header, bob.boxKey);
 * const wire = await signEnvelope({ v: 1, ...header, ts: 1, thread: header.id,
 *   reply_to: null, hops: 0, box }, alice);
 * const parsed = parseWireEnvelope(wire);
 * if (!parsed.ok) throw new Error(parsed.detail);
 * const opened = await verifyAndOpen(parsed, alice.signKey, bob);
 * if (!opened.ok) throw new Error(opened.reason);
 * ```
 */
export async function verifyAndOpen(
  parsed: ParsedWireEnvelope,
  signKey: Uint8Array | string,
  identity: Identity,
): Promise<OpenedEnvelope> {
  const payload = parsed.payload;
  const preparing = prepareOpen(payload.box, identity);
  // Settled either way below; a rejection must not go unhandled if the signature fails.
  preparing.catch(() => {});
  if (!await verifyParsedEnvelope(parsed, signKey)) return { ok: false, reason: "bad_signature" };
  try {
    const prepared = await preparing;
    const header = { id: payload.id, kind: payload.kind, from: payload.from, to: payload.to };
    return { ok: true, payload, plaintext: finishOpen(prepared, header) };
  } catch (error) {
    if (error instanceof OpenError) return { ok: false, reason: "unopenable", error };
    throw error;
  }
}

/**
 * {@linkcode verifyAndOpen} for a batch (a page of updates), all at once; results come
 * back in the input's order, so the caller still handles envelopes one after another.
 */
export function verifyAndOpenAll(
  items: readonly EnvelopeToOpen[],
  identity: Identity,
): Promise<OpenedEnvelope[]> {
  return Promise.all(items.map((item) => verifyAndOpen(item.parsed, item.signKey, identity)));
}
