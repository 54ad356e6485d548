/**
 * What a sealed box holds, by envelope kind, and the rules a receiver applies to it.
 *
 * @module
 */

import { SUB_PATTERN } from "./address.ts";
import type { EnvelopeKind } from "./envelope.ts";

/** The plaintext of a `contact_request`: display name and an introduction (may be empty). */
export interface ContactRequestPlaintext {
  /** The sender's display name. */
  name: string;
  /** The introduction. */
  text: string;
}

/** The plaintext of a `contact_accept`. */
export interface ContactAcceptPlaintext {
  /** The sender's display name. */
  name: string;
}

/** The plaintext of a `contact_removed`: the sender's display name. */
export interface ContactRemovedPlaintext {
  /** The sender's display name. */
  name: string;
}

/** The plaintext of a `message`. */
export interface MessagePlaintext {
  /** The message, at most 8 000 characters. */
  text: string;
  /** A sub-agent name (`^[a-z][a-z0-9-]{1,30}$`); missing means none. */
  sub?: string;
}

/** Any sealed plaintext. */
export type Plaintext =
  | ContactRequestPlaintext
  | ContactAcceptPlaintext
  | ContactRemovedPlaintext
  | MessagePlaintext;

/** The plaintext type of an envelope kind. */
export type PlaintextFor<K extends EnvelopeKind> = K extends "contact_request"
  ? ContactRequestPlaintext
  : K extends "contact_accept" ? ContactAcceptPlaintext
  : K extends "contact_removed" ? ContactRemovedPlaintext
  : MessagePlaintext;

/** Longest message text in characters (code points). */
export const MESSAGE_TEXT_MAX = 8000;

/**
 * Whether `text` is a string of at most 8 000 characters (code points).
 *
 * @example
 * ```ts
 * import { isMessageText } from "./plaintext.ts";
 * if (!isMessageText("hi") || isMessageText("x".repeat(8001))) throw new Error("wrong");
 * ```
 */
export function isMessageText(text: unknown): text is string {
  if (typeof text !== "string") return false;
  if (text.length <= MESSAGE_TEXT_MAX) return true;
  // A string longer than the limit in UTF-16 units may still fit in code points.
  if (text.length > MESSAGE_TEXT_MAX * 2) return false;
  let n = 0;
  for (const _ of text) if (++n > MESSAGE_TEXT_MAX) return false;
  return true;
}

/**
 * Checks a decoded plaintext against its kind's schema and returns only the known keys
 * (receivers ignore unknown keys; `sub` is the only optional one, and null means none).
 *
 * @throws {TypeError} when a field is missing or has the wrong type, `sub` is invalid.
 * @throws {RangeError} when a message text is longer than 8 000 characters.
 * @example
 * ```ts
 * import { parsePlaintext } from "./plaintext.ts";
 * const p = parsePlaintext("message", { text: "hi", sub: null, extra: 1 });
 * if (JSON.stringify(p) !== '{"text":"hi"}') throw new Error(JSON.stringify(p));
 * ```
 */
export function parsePlaintext<K extends EnvelopeKind>(kind: K, value: unknown): PlaintextFor<K>;
export function parsePlaintext(kind: EnvelopeKind, value: unknown): Plaintext {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError("Bad plaintext: not a JSON object");
  }
  const record = value as Record<string, unknown>;
  switch (kind) {
    case "contact_request":
      return { name: stringField(record, "name"), text: stringField(record, "text") };
    case "contact_accept":
    case "contact_removed":
      return { name: stringField(record, "name") };
    case "message": {
      const text = stringField(record, "text");
      if (!isMessageText(text)) {
        throw new RangeError(`Bad plaintext: 'text' is longer than ${MESSAGE_TEXT_MAX} characters`);
      }
      const sub = record.sub;
      if (sub === undefined || sub === null) return { text };
      if (typeof sub !== "string" || !SUB_PATTERN.test(sub)) {
        throw new TypeError("Bad plaintext: 'sub' must match ^[a-z][a-z0-9-]{1,30}$");
      }
      return { text, sub };
    }
    default:
      throw new TypeError("Bad plaintext: unknown envelope kind");
  }
}

function stringField(record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (typeof value !== "string") throw new TypeError(`Bad plaintext: '${field}' must be a string`);
  return value;
}
