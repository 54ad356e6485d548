/**
 * The dashboard's request checks, in one place: same-origin only (the hub's own
 * `Origin`, no cross-site fetch metadata), a live session token, and a CSRF token on
 * every state-changing request. The loopback `Host` check is the control API's; behind a
 * cloud spine the mount's own origin is the spine's (see `mount.ts`).
 *
 * @module
 */
import { HttpError } from "@agent/net";
import type { DashboardAuth, DashboardSession } from "./auth.ts";

/**
 * Refuses (403) a request another site made: an `Origin` other than the dashboard's own
 * (`origin`: `http://<Host>` on the control port, the spine's https origin in cloud
 * mode), or `Sec-Fetch-Site` other than `same-origin` (another port of 127.0.0.1 is the
 * same *site*, so a site check alone would let it through). A top-level
 * navigation (`none`) may open the page itself, never the API.
 */
export function requireSameOrigin(
  request: Request,
  options: { navigation?: boolean; origin?: string } = {},
): void {
  const own = options.origin ?? `http://${request.headers.get("host") ?? ""}`;
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== own) throw new HttpError(403, "forbidden");
  const site = request.headers.get("sec-fetch-site");
  if (site === null || site === "same-origin") return;
  if (options.navigation && site === "none") return;
  throw new HttpError(403, "forbidden");
}

/** The live session of the request, or 401 `unauthorized`. */
export function requireSession(auth: DashboardAuth, request: Request): DashboardSession {
  const session = auth.session(request);
  if (session === undefined) throw new HttpError(401, "unauthorized");
  return session;
}

/**
 * For a state-changing request: same origin with an `Origin` header present, and the
 * session's CSRF token in `X-CSRF-Token`; else 403.
 */
export function requireCsrf(
  auth: DashboardAuth,
  request: Request,
  session: DashboardSession,
): void {
  if (request.headers.get("origin") === null) throw new HttpError(403, "forbidden");
  if (!auth.csrfMatches(request, session)) throw new HttpError(403, "csrf");
}

/** The headers every dashboard answer carries: a strict CSP, no sniffing, no framing. */
export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; "),
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};
