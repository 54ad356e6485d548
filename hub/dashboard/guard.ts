/**
 * The dashboard's request checks, in one place: same-origin only (the hub's own
 * `Origin`, no cross-site fetch metadata), a live session token, and a CSRF token on
 * every state-changing request. The loopback `Host` check is the control API's; behind a
 * cloud spine the mount's own origin is the spine's (see `mount.ts`).
 *
 * @module
 */
import { DASHBOARD_SECURITY_HEADERS, HttpError, withHeaders } from "@agent/net";
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

/** The headers every dashboard answer carries (see {@linkcode secured}). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = DASHBOARD_SECURITY_HEADERS;

/**
 * `response` with {@linkcode SECURITY_HEADERS} (and `Cache-Control: no-store` unless it
 * names its own): every answer under the dashboard's path goes through here, whoever
 * made it (the dashboard, the control API's refusal before it, the brain's port).
 */
export function secured(response: Response): Response {
  return withHeaders(response, SECURITY_HEADERS, { "cache-control": "no-store" });
}

/** Whether `url`'s path is under `base` (`/dashboard`, `/hub/dashboard`). Never throws. */
export function isUnder(url: string, base: string): boolean {
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url)?.[1] ?? "";
  return path === base || path.startsWith(`${base}/`);
}
