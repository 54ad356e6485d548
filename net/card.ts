/**
 * Cards: the public JSON an agent's spine serves at `GET /.well-known/agent.json`.
 *
 * @module
 */

import { isAddress } from "./address.ts";
import { b64uDecodeLength } from "./b64u.ts";

/** A published card. */
export interface Card {
  /** Always 1. */
  v: 1;
  /** The agent's address (added by the spine). */
  address: string;
  /** Display name, 1 to 80 characters. */
  name: string;
  /** b64u of the raw Ed25519 public key. */
  sign_key: string;
  /** b64u of the raw X25519 public key. */
  box_key: string;
  /** `https://<address>/net/inbox` (added by the spine). */
  inbox: string;
  /** `agent-spine/<version>` (added by the spine). */
  software: string;
}

/** What a hub publishes with `PUT /hub/card`. */
export interface CardInput {
  /** Display name, 1 to 80 characters. */
  name: string;
  /** b64u of the raw Ed25519 public key. */
  sign_key: string;
  /** b64u of the raw X25519 public key. */
  box_key: string;
}

/** Longest card name in characters (code points). */
export const CARD_NAME_MAX = 80;

/** Largest card a fetcher reads, in bytes. */
export const MAX_CARD_BYTES = 8 * 1024;

/**
 * Whether `name` is a valid card name: a string of 1 to 80 characters (code points).
 *
 * @example
 * ```ts
 * import { isCardName } from "./card.ts";
 * if (!isCardName("Ada") || isCardName("") || isCardName("x".repeat(81))) throw new Error();
 * ```
 */
export function isCardName(name: unknown): name is string {
  if (typeof name !== "string" || name.length === 0) return false;
  return name.length <= CARD_NAME_MAX || codePoints(name) <= CARD_NAME_MAX;
}

/** Number of characters (code points) in `text`. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Checks a `PUT /hub/card` body: `name` 1 to 80 characters, keys b64u of 32 bytes.
 * Unknown keys are dropped.
 *
 * @throws {TypeError} naming the first bad field.
 */
export function parseCardInput(value: unknown): CardInput {
  if (!isRecord(value)) throw new TypeError("Bad card: the body must be a JSON object");
  if (!isCardName(value.name)) throw new TypeError("Bad card: 'name' must have 1 to 80 characters");
  if (b64uDecodeLength(value.sign_key, 32) === undefined) {
    throw new TypeError("Bad card: 'sign_key' must be b64u of 32 bytes");
  }
  if (b64uDecodeLength(value.box_key, 32) === undefined) {
    throw new TypeError("Bad card: 'box_key' must be b64u of 32 bytes");
  }
  return { name: value.name, sign_key: value.sign_key as string, box_key: value.box_key as string };
}

/**
 * Checks a fetched card: `v` 1, `address` an address (equal to `expectedAddress` when
 * given), `name` 1 to 80 characters, `sign_key` and `box_key` b64u of 32 bytes, and
 * `inbox` and `software` strings when present (a missing one is filled in from the
 * address and left empty). Unknown keys are dropped.
 *
 * @throws {TypeError} naming the first bad field.
 * @example
 * ```ts
 * import { parseCard } from "./card.ts";
 * const key = "A".repeat(43);
 * const card = parseCard({ v: 1, address: "bob.example", name: "Bob", sign_key: key,
 *   box_key: key, inbox: "https://bob.example/net/inbox", software: "agent-spine/0.1.0" },
 *   "bob.example");
 * if (card.name !== "Bob") throw new Error("wrong card");
 * ```
 */
export function parseCard(value: unknown, expectedAddress?: string): Card {
  if (!isRecord(value)) throw new TypeError("Bad card: not a JSON object");
  if (value.v !== 1) throw new TypeError("Bad card: 'v' is not 1");
  if (!isAddress(value.address)) throw new TypeError("Bad card: 'address' is not an address");
  if (expectedAddress !== undefined && value.address !== expectedAddress.toLowerCase()) {
    throw new TypeError("Bad card: 'address' does not match the address it was fetched from");
  }
  if (!isCardName(value.name)) throw new TypeError("Bad card: 'name' must have 1 to 80 characters");
  if (b64uDecodeLength(value.sign_key, 32) === undefined) {
    throw new TypeError("Bad card: 'sign_key' is not b64u of 32 bytes");
  }
  if (b64uDecodeLength(value.box_key, 32) === undefined) {
    throw new TypeError("Bad card: 'box_key' is not b64u of 32 bytes");
  }
  if (value.inbox !== undefined && typeof value.inbox !== "string") {
    throw new TypeError("Bad card: 'inbox' is not a string");
  }
  if (value.software !== undefined && typeof value.software !== "string") {
    throw new TypeError("Bad card: 'software' is not a string");
  }
  return {
    v: 1,
    address: value.address,
    name: value.name,
    sign_key: value.sign_key as string,
    box_key: value.box_key as string,
    inbox: (value.inbox as string | undefined) ?? `https://${value.address}/net/inbox`,
    software: (value.software as string | undefined) ?? "",
  };
}

/**
 * The spine's sender-card check: `v` 1, `address` equal to `from`, `sign_key` b64u of
 * 32 bytes. Returns the raw signing key, or `undefined` when the card fails. Looser than
 * {@linkcode parseCard} on purpose: the inbox needs nothing else from a sender's card.
 */
export function senderSignKey(value: unknown, from: string): Uint8Array | undefined {
  if (!isRecord(value) || value.v !== 1 || value.address !== from) return undefined;
  return b64uDecodeLength(value.sign_key, 32);
}

/**
 * Builds the full card a spine serves from what the hub published.
 *
 * @example
 * ```ts
 * import { buildCard } from "./card.ts";
 * const key = "A".repeat(43);
 * const c = buildCard({ name: "Bob", sign_key: key, box_key: key }, "bob.example", "0.1.0");
 * if (c.inbox !== "https://bob.example/net/inbox") throw new Error(c.inbox);
 * ```
 */
export function buildCard(input: CardInput, address: string, version: string): Card {
  return {
    v: 1,
    address,
    name: input.name,
    sign_key: input.sign_key,
    box_key: input.box_key,
    inbox: `https://${address}/net/inbox`,
    software: `agent-spine/${version}`,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
