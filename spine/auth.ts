import { HttpError } from "@agent/net";

const encoder = new TextEncoder();

/**
 * Compares two strings in time that depends only on their lengths, never on where
 * they differ.
 *
 * @example
 * ```ts
 * import { timingSafeEqual } from "./auth.ts";
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

/**
 * Checks `Authorization: Bearer <token>` (scheme matched case-insensitively) against
 * `HUB_TOKEN`. Throws 503 `not_configured` without a token and 401 `unauthorized` for a
 * missing or wrong one.
 */
export function requireBearer(request: Request, hubToken: string | undefined): void {
  if (!hubToken) throw new HttpError(503, "not_configured");
  const header = request.headers.get("authorization") ?? "";
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match || !timingSafeEqual(match[1]!, hubToken)) {
    throw new HttpError(401, "unauthorized");
  }
}
