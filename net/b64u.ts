/**
 * Base64url (RFC 4648 section 5): encoded without padding, decoded with or without it.
 *
 * @module
 */

// Web APIs only: `Uint8Array.fromBase64`/`toBase64` where the runtime has them
// (Deno, recent workerd), a portable path through `btoa`/`atob` otherwise.
type Base64Native = {
  fromBase64?: (text: string, options: { alphabet: "base64url" }) => Uint8Array;
};
type Base64NativeInstance = {
  toBase64?: (options: { alphabet: "base64url"; omitPadding: boolean }) => string;
};

const NATIVE_FROM = (Uint8Array as unknown as Base64Native).fromBase64;
const NATIVE_TO = (new Uint8Array(0) as unknown as Base64NativeInstance).toBase64;

// The alphabet, then at most two `=`; the length rules are checked separately.
const SHAPE = /^[A-Za-z0-9_-]*={0,2}$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * Encodes bytes as base64url without padding.
 *
 * @example
 * ```ts
 * import { b64uEncode } from "./b64u.ts";
 * if (b64uEncode(new Uint8Array([251, 255])) !== "-_8") throw new Error("bad encoding");
 * ```
 */
export function b64uEncode(bytes: Uint8Array): string {
  if (NATIVE_TO !== undefined) {
    return (bytes as unknown as Required<Base64NativeInstance>).toBase64({
      alphabet: "base64url",
      omitPadding: true,
    });
  }
  return portableEncode(bytes);
}

/**
 * The encoder used where the runtime lacks `Uint8Array.prototype.toBase64`; exported so
 * tests cover it on every runtime.
 */
export function portableEncode(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Decodes base64url, with or without padding. Strict: only the base64url alphabet,
 * no whitespace, a length that base64 can produce, correct padding when present and
 * zero bits after the last byte (so every byte string has exactly one accepted form,
 * apart from the optional padding).
 *
 * @throws {TypeError} when the text is not valid base64url.
 * @example
 * ```ts
 * import { b64uDecode } from "./b64u.ts";
 * const a = b64uDecode("-_8");
 * const b = b64uDecode("-_8=");
 * if (a.length !== 2 || b[1] !== 255) throw new Error("bad decoding");
 * ```
 */
export function b64uDecode(text: string): Uint8Array {
  const body = checkedBody(text);
  if (NATIVE_FROM !== undefined) return NATIVE_FROM(body, { alphabet: "base64url" });
  return atobDecode(body);
}

/**
 * The decoder used where the runtime lacks `Uint8Array.fromBase64`, with the same
 * checks as {@linkcode b64uDecode}; exported so tests cover it on every runtime.
 */
export function portableDecode(text: string): Uint8Array {
  return atobDecode(checkedBody(text));
}

function atobDecode(body: string): Uint8Array {
  const binary = atob(body.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

// Applies the strict rules and returns the text without padding.
function checkedBody(text: string): string {
  if (typeof text !== "string" || !SHAPE.test(text)) {
    throw new TypeError("Cannot decode base64url: the text has characters outside the alphabet");
  }
  let body = text;
  const pad = text.length - text.replace(/=+$/, "").length;
  if (pad > 0) {
    if (text.length % 4 !== 0) {
      throw new TypeError("Cannot decode base64url: the padding does not fit the length");
    }
    body = text.slice(0, text.length - pad);
    if ((body.length + pad) % 4 !== 0 || body.length % 4 === 0) {
      throw new TypeError("Cannot decode base64url: the padding does not fit the length");
    }
  }
  const rest = body.length % 4;
  if (rest === 1) {
    throw new TypeError("Cannot decode base64url: the length is not possible in base64");
  }
  // Canonical form only: the unused low bits of the last character must be zero.
  if (rest !== 0) {
    const last = ALPHABET.indexOf(body[body.length - 1] as string);
    const unused = rest === 2 ? 0b1111 : 0b11;
    if ((last & unused) !== 0) {
      throw new TypeError("Cannot decode base64url: the last character has stray bits");
    }
  }
  return body;
}

/** Whether `text` is valid base64url (as {@linkcode b64uDecode} accepts it). */
export function isB64u(text: unknown): text is string {
  if (typeof text !== "string") return false;
  try {
    b64uDecode(text);
    return true;
  } catch {
    return false;
  }
}

/** Decodes base64url and checks the byte length; `undefined` when either fails. */
export function b64uDecodeLength(text: unknown, length: number): Uint8Array | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const bytes = b64uDecode(text);
    return bytes.length === length ? bytes : undefined;
  } catch {
    return undefined;
  }
}
