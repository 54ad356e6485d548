/**
 * Signed universe requests (`join`, `report`, `leave`): what a hub posts to a universe's
 * `/api/*` routes, signed with the agent's signing key under the `agent-universe/1` prefix.
 *
 * @module
 */

import { isAddress, SUB_PATTERN } from "./address.ts";
import { b64uEncode } from "./b64u.ts";
import { codePoints } from "./card.ts";
import type { WireEnvelope } from "./envelope.ts";
import type { Identity } from "./identity.ts";
import { signPrefixed, utf8 } from "./_keys.ts";
import { isRecord, parseSignedWire, verifySignedWire } from "./_signed_wire.ts";

/** The signature domain prefix: `agent-universe/1` and one LF byte. */
export const UNIVERSE_SIGNATURE_PREFIX = "agent-universe/1\n";

/** Largest universe request payload in bytes (64 KiB). */
export const MAX_UNIVERSE_PAYLOAD_BYTES = 65_536;

/** Universe request limits, in characters or entries. */
export const UNIVERSE_LIMITS: Readonly<{
  ownerChars: number;
  aboutChars: number;
  links: number;
  subs: number;
}> = Object.freeze({
  ownerChars: 60,
  aboutChars: 200,
  links: 500,
  subs: 20,
});

const PREFIX_BYTES = utf8(UNIVERSE_SIGNATURE_PREFIX);

/** The three universe request kinds. */
export type UniverseRequestKind = "join" | "report" | "leave";

/** Fields every universe request payload carries. */
export interface UniverseRequestBase {
  /** Always 1. */
  v: 1;
  /** Which request. */
  kind: UniverseRequestKind;
  /** The universe's host, so a request cannot be replayed to another universe. */
  universe: string;
  /** The agent's address. */
  address: string;
  /** Send time, integer Unix seconds. */
  ts: number;
}

/** A `join`: owner's display name and a short text about the agent. */
export interface UniverseJoin extends UniverseRequestBase {
  /** `join`. */
  kind: "join";
  /** Owner's display name, 0 to 60 characters (missing means empty). */
  owner: string;
  /** About the agent, 0 to 200 characters (missing means empty). */
  about: string;
}

/** One reported link: message envelopes exchanged with a peer, both directions. */
export interface UniverseLink {
  /** The peer's address. */
  peer: string;
  /** Message envelopes exchanged, at least 0. */
  messages: number;
}

/** One public sub-agent in a report. */
export interface UniverseSub {
  /** Sub-agent name, `^[a-z][a-z0-9-]{1,30}$`. */
  name: string;
  /** About it, 0 to 200 characters (missing means empty). */
  about: string;
}

/** A `report`: links to contacts and the public sub-agents. */
export interface UniverseReport extends UniverseRequestBase {
  /** `report`. */
  kind: "report";
  /** At most 500 links. */
  links: UniverseLink[];
  /** At most 20 public sub-agents; missing means none. */
  subs?: UniverseSub[];
}

/** A `leave`. */
export interface UniverseLeave extends UniverseRequestBase {
  /** `leave`. */
  kind: "leave";
}

/** Any universe request payload. */
export type UniversePayload = UniverseJoin | UniverseReport | UniverseLeave;

/** The result of {@linkcode parseUniverseRequest}. */
export type ParsedUniverseRequest =
  | { ok: true; wire: WireEnvelope; payload: UniversePayload; payloadBytes: Uint8Array }
  | { ok: false; detail: string };

/**
 * Checks a universe request body: string `payload` and `sig`, both valid b64u; the
 * payload at most 64 KiB of UTF-8 JSON; `v` 1; a known kind; a valid address; the
 * fields of the kind with their types and lengths. Missing `owner`/`about` of a join
 * and a sub-agent's missing `about` become empty; unknown keys are dropped. It does not
 * check the signature, the universe host or the clock.
 *
 * @example
 * ```ts
 * import { parseUniverseRequest } from "./universe_request.ts";
 * const r = parseUniverseRequest({ payload: "e30", sig: "AA" });
 * if (r.ok || r.detail !== "payload 'v' must be 1") throw new Error(JSON.stringify(r));
 * ```
 */
export function parseUniverseRequest(value: unknown): ParsedUniverseRequest {
  const wire = parseSignedWire(value, {
    maxPayloadBytes: MAX_UNIVERSE_PAYLOAD_BYTES,
    tooLarge: "the payload is larger than 64 KiB",
  });
  if (!wire.ok) return wire;
  const { payload, sig, payloadBytes, json: parsed } = wire;
  const result = checkPayload(parsed);
  if (typeof result === "string") return fail(result);
  return { ok: true, wire: { payload, sig }, payload: result, payloadBytes };
}

/**
 * Checks a decoded universe payload; returns the cleaned payload or the first problem.
 */
export function checkUniversePayload(value: unknown): UniversePayload | string {
  return checkPayload(value);
}

function checkPayload(value: unknown): UniversePayload | string {
  if (!isRecord(value)) return "the payload must be a JSON object";
  if (value.v !== 1) return "payload 'v' must be 1";
  const kind = value.kind;
  if (kind !== "join" && kind !== "report" && kind !== "leave") {
    return "payload 'kind' must be join, report or leave";
  }
  if (typeof value.universe !== "string" || value.universe === "") {
    return "payload 'universe' must be a non-empty string";
  }
  if (!isAddress(value.address)) return "payload 'address' must be a valid address";
  if (!Number.isSafeInteger(value.ts)) return "payload 'ts' must be an integer";
  // Field order follows the spec's table so a signer's JSON reads as documented.
  const universe = value.universe;
  const address = value.address;
  const ts = value.ts as number;
  if (kind === "leave") return { v: 1, kind, universe, address, ts };
  if (kind === "join") {
    const owner = optionalText(value.owner, "owner", UNIVERSE_LIMITS.ownerChars);
    if (owner.problem !== undefined) return owner.problem;
    const about = optionalText(value.about, "about", UNIVERSE_LIMITS.aboutChars);
    if (about.problem !== undefined) return about.problem;
    return { v: 1, kind, universe, address, ts, owner: owner.text, about: about.text };
  }
  const links = checkLinks(value.links);
  if (typeof links === "string") return links;
  if (value.subs === undefined) return { v: 1, kind, universe, address, ts, links };
  const subs = checkSubs(value.subs);
  if (typeof subs === "string") return subs;
  return { v: 1, kind, universe, address, ts, links, subs };
}

function checkLinks(value: unknown): UniverseLink[] | string {
  if (!Array.isArray(value)) return "payload 'links' must be a list";
  if (value.length > UNIVERSE_LIMITS.links) return "payload 'links' has more than 500 entries";
  const links: UniverseLink[] = [];
  for (const [i, link] of value.entries()) {
    if (!isRecord(link)) return `payload 'links[${i}]' must be an object`;
    if (!isAddress(link.peer)) return `payload 'links[${i}].peer' must be a valid address`;
    if (!Number.isSafeInteger(link.messages) || (link.messages as number) < 0) {
      return `payload 'links[${i}].messages' must be an integer at least 0`;
    }
    links.push({ peer: link.peer, messages: link.messages as number });
  }
  return links;
}

function checkSubs(value: unknown): UniverseSub[] | string {
  if (!Array.isArray(value)) return "payload 'subs' must be a list";
  if (value.length > UNIVERSE_LIMITS.subs) return "payload 'subs' has more than 20 entries";
  const subs: UniverseSub[] = [];
  for (const [i, sub] of value.entries()) {
    if (!isRecord(sub)) return `payload 'subs[${i}]' must be an object`;
    if (typeof sub.name !== "string" || !SUB_PATTERN.test(sub.name)) {
      return `payload 'subs[${i}].name' must match ^[a-z][a-z0-9-]{1,30}$`;
    }
    const about = optionalText(sub.about, `subs[${i}].about`, UNIVERSE_LIMITS.aboutChars);
    if (about.problem !== undefined) return about.problem;
    subs.push({ name: sub.name, about: about.text });
  }
  return subs;
}

function optionalText(
  value: unknown,
  field: string,
  max: number,
): { text: string; problem?: string } {
  if (value === undefined) return { text: "" };
  if (typeof value !== "string") {
    return { text: "", problem: `payload '${field}' must be a string` };
  }
  if (value.length > max && codePoints(value) > max) {
    return { text: "", problem: `payload '${field}' has more than ${max} characters` };
  }
  return { text: value };
}

/**
 * Serialises a universe payload as UTF-8 JSON and signs it under `agent-universe/1\n`.
 *
 * @throws {TypeError} when the payload breaks the rules {@linkcode parseUniverseRequest} applies.
 * @example
 * ```ts
 * import { generateIdentity, signUniverseRequest, verifyUniverseRequest } from "./mod.ts";
 * const me = await generateIdentity();
 * const wire = await signUniverseRequest(
 *   { v: 1, kind: "leave", universe: "u.example", address: "a.example", ts: 1700000000 }, me);
 * if (!await verifyUniverseRequest(wire, me.signKey)) throw new Error("should verify");
 * ```
 */
export async function signUniverseRequest(
  payload: UniversePayload,
  identity: Identity,
): Promise<WireEnvelope> {
  const clean = checkPayload(payload);
  if (typeof clean === "string") throw new TypeError(`Cannot sign universe request: ${clean}`);
  const bytes = utf8(JSON.stringify(clean));
  if (bytes.length > MAX_UNIVERSE_PAYLOAD_BYTES) {
    throw new RangeError("Cannot sign universe request: the payload is larger than 64 KiB");
  }
  const sig = await signPrefixed(PREFIX_BYTES, bytes, identity.signPrivateKey);
  return { payload: b64uEncode(bytes), sig: b64uEncode(sig) };
}

/**
 * Verifies a universe request's signature: Ed25519 over `agent-universe/1\n` plus the
 * exact payload bytes. False for any bad, wrong-length or malformed input; never throws.
 */
export async function verifyUniverseRequest(
  wire: WireEnvelope,
  signKey: Uint8Array | string,
): Promise<boolean> {
  return await verifySignedWire(PREFIX_BYTES, wire.payload, wire.sig, signKey);
}

function fail(detail: string): { ok: false; detail: string } {
  return { ok: false, detail };
}
