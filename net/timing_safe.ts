/**
 * Comparing secrets (bearer tokens, webhook secrets) without leaking where they differ.
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * Compares two strings in time that depends only on their lengths, never on where
 * they differ.
 *
 * @example
 * ```ts
 * import { timingSafeEqual } from "./timing_safe.ts";
 * if (!timingSafeEqual("token", "token") || timingSafeEqual("token", "tokem")) throw new Error();
 * ```
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const length = Math.max(x.byteLength, y.byteLength);
  let diff = x.byteLength ^ y.byteLength;
  for (let i = 0; i < length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
