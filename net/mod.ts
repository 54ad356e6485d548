/**
 * The agent network protocol (v1): addresses, base64url, identities, cards, signed
 * envelopes, sealed boxes and universe requests. Web APIs only, so the spine and
 * universe Workers import it too.
 *
 * @example
 * ```ts
 * import { generateIdentity, openBox, sealBox, signEnvelope, verifyEnvelope } from "./mod.ts";
 * const alice = await generateIdentity();
 * const bob = await generateIdentity();
 * const header = {
 *   id: "AAAAAAAAAAAAAAAA", kind: "message", from: "a.example", to: "b.example",
 * } as const;
 * const box = await sealBox({ text: "hello" }, header, bob.boxKey);
 * const wire = await signEnvelope({ v: 1, ...header, ts: 1700000000, thread: header.id,
 *   reply_to: null, hops: 0, box }, alice);
 * if (!await verifyEnvelope(wire, alice.signKey)) throw new Error("signature");
 * const plain = await openBox(box, header, bob);
 * if (plain.text !== "hello") throw new Error("box");
 * ```
 *
 * @module
 */
export * from "./b64u.ts";
export * from "./address.ts";
export * from "./identity.ts";
export * from "./card.ts";
export * from "./envelope.ts";
export * from "./plaintext.ts";
export * from "./box.ts";
export * from "./universe_request.ts";
export * from "./receive.ts";
export * from "./i18n.ts";
export * from "./http.ts";
export * from "./error_message.ts";
export * from "./timing_safe.ts";
export * from "./card_download.ts";
export * from "./text.ts";
export * from "./cloud_names.ts";
