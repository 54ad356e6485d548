import { HttpError, timingSafeEqual } from "@agent/net";

export { timingSafeEqual };

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
