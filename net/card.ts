/**
 * Cards: the public JSON an agent's spine serves at `GET /.well-known/agent.json`.
 *
 * @module
 */

import { isAddress } from "./address.ts";
import { b64uDecodeLength } from "./b64u.ts";
import { checkCardKey, isSmallOrderEd25519 } from "./key_check.ts";

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
 * Checks a `PUT /hub/card` body: `name` 1 to 80 characters, keys b64u of 32 bytes that
 * are not small-order points. Keys come back in canonical b64u (without padding);
 * unknown fields are dropped.
 *
 * @throws {TypeError} naming the first bad field.
 */
export function parseCardInput(value: unknown): CardInput {
  if (!isRecord(value)) throw new TypeError("Bad card: the body must be a JSON object");
  if (!isCardName(value.name)) throw new TypeError("Bad card: 'name' must have 1 to 80 characters");
  const sign = cardKey("sign_key", value.sign_key, "must be");
  const box = cardKey("box_key", value.box_key, "must be");
  return { name: value.name, sign_key: sign, box_key: box };
}

/**
 * Checks a fetched card: `v` 1, `address` an address (equal to `expectedAddress` when
 * given), `name` 1 to 80 characters, `sign_key` and `box_key` b64u of 32 bytes that are
 * not small-order points (returned in canonical b64u, without padding), and `inbox` and
 * `software` strings when present (a missing one is filled in from the address and left
 * empty). Unknown keys are dropped.
 *
 * @throws {TypeError} naming the first bad field.
 * @example
 * ```ts
 * import { parseCard } from "./card.ts";
 * const key = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
 * const card = parseCard({ v: 1, address: "bob.example", name: "Bob", sign_key: key + "=",
 *   box_key: key, inbox: "https://bob.example/net/inbox", software: "agent-spine/0.1.0" },
 *   "bob.example");
 * if (card.name !== "Bob" || card.sign_key !== key) throw new Error("wrong card");
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
  const sign = cardKey("sign_key", value.sign_key, "is not");
  const box = cardKey("box_key", value.box_key, "is not");
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
    sign_key: sign,
    box_key: box,
    inbox: (value.inbox as string | undefined) ?? `https://${value.address}/net/inbox`,
    software: (value.software as string | undefined) ?? "",
  };
}

function cardKey(field: "sign_key" | "box_key", value: unknown, verb: string): string {
  const checked = checkCardKey(field, value);
  if ("key" in checked) return checked.key;
  if (checked.refused === "shape") {
    throw new TypeError(`Bad card: '${field}' ${verb} b64u of 32 bytes`);
  }
  const curve = field === "sign_key" ? "Ed25519" : "X25519";
  throw new TypeError(
    `Bad card: '${field}' is a small-order ${curve} key, which no honest agent publishes`,
  );
}

/**
 * The spine's sender-card check: `v` 1, `address` equal to `from`, `sign_key` b64u of
 * 32 bytes and not a small-order point. Returns the raw signing key, or `undefined` when
 * the card fails. Looser than {@linkcode parseCard} on purpose: the inbox needs nothing
 * else from a sender's card.
 */
export function senderSignKey(value: unknown, from: string): Uint8Array | undefined {
  if (!isRecord(value) || value.v !== 1 || value.address !== from) return undefined;
  const key = b64uDecodeLength(value.sign_key, 32);
  return key === undefined || isSmallOrderEd25519(key) ? undefined : key;
}

/**
 * Builds the full card a spine serves from what the hub published.
 *
 * @example
 * ```ts
 * import { buildCard } from "./card.ts";
 * const key = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
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
