/**
 * The agent network protocol (v1): addresses, base64url, identities, cards, signed
 * envelopes, sealed boxes and universe requests. Web APIs only, so the spine and
 * universe Workers import it too.
 *
 * @module
 */
export * from "./b64u.ts";
export * from "./address.ts";
export * from "./identity.ts";
export * from "./card.ts";
export * from "./envelope.ts";
