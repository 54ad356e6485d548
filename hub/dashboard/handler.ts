/**
 * The local web dashboard, served by the hub's control API under `/dashboard`: the
 * page and its bundled assets, the login that trades a one-time code for a session
 * cookie, and the JSON routes the page reads (overview, spend, events) and acts
 * through (the chat, approvals). Every route but the page, its assets and the login
 * needs the session; every `POST` the CSRF token too. Behind a cloud spine the brain
 * serves the same routes under `/hub/dashboard` (`mount.ts`).
 *
 * | Route | What |
 * | --- | --- |
 * | `GET /dashboard/` | the page (no data in it) |
 * | `GET /dashboard/assets/app.js`, `app.css` | the bundled script and stylesheet |
 * | `POST /dashboard/code` | a one-time code (control token needed; `agent dashboard` asks) |
 * | `POST /dashboard/api/login` | `{code}` → the session cookie and `{csrf}` |
 * | `GET /dashboard/api/session` | `{csrf, lang}` for a signed-in page |
 * | `POST /dashboard/api/logout` | ends the session |
 * | `GET /dashboard/api/overview` | the hub's status and the latest owner events |
 * | `GET /dashboard/api/spend?period=` | the charts' data, aggregated by the ledger |
 * | `GET /dashboard/api/spend.csv?by=&period=` | one breakdown as CSV |
 * | `GET /dashboard/api/events` | owner events as server-sent events |
 *
 * @module
 */
import { HttpError, json, methodNotAllowed } from "@agent/net";
import { jsonBody } from "./body.ts";
import { eventStreamResponse, resumeFrom } from "../control/sse.ts";
import { DashboardAuth } from "./auth.ts";
import { requireCsrf, requireSameOrigin, requireSession, SECURITY_HEADERS } from "./guard.ts";
import { pageHtml } from "./page.ts";
import { APP_CSS, APP_JS } from "./_assets.ts";
import { spendCsv } from "./csv.ts";
import { spendOf } from "./spend.ts";
import { localMount } from "./mount.ts";
import type { DashboardDoor, DashboardMount, DashboardSources } from "./types.ts";

export type { DashboardChat, DashboardDoor, DashboardMount, DashboardSources } from "./types.ts";

/** Builds the dashboard over `sources`. */
export function dashboard(sources: DashboardSources): DashboardDoor {
  const mount = sources.mount ?? localMount(sources.port);
  const auth = new DashboardAuth({
    cookieName: mount.cookieName,
    path: mount.base,
    secure: mount.secure,
    ...(mount.sessionKey ? { signingKey: mount.sessionKey } : {}),
    now: sources.now,
    ...(sources.codeTtlMs ? { codeTtlMs: sources.codeTtlMs } : {}),
  });
  return {
    issueCode: () => auth.issueCode(),
    async handle(request, url) {
      const response = await route(request, url, sources, auth, mount);
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers.set(name, value);
      if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
      return new Response(response.body, { status: response.status, headers });
    },
  };
}

async function route(
  request: Request,
  url: URL,
  sources: DashboardSources,
  auth: DashboardAuth,
  mount: DashboardMount,
): Promise<Response> {
  // Paths below the mount's base: `/`, `/assets/app.js`, `/api/<name>`.
  const path = url.pathname.startsWith(mount.base)
    ? url.pathname.slice(mount.base.length)
    : undefined;
  const method = request.method;
  if (path === undefined) throw new HttpError(404, "not_found");
  // The own origin first: a request under a name the dashboard must not answer is
  // refused before anything else (behind a cloud spine, its Host check).
  const origin = mount.origin(request);
  if (path === "" || path === "/") {
    if (method !== "GET" && method !== "HEAD") methodNotAllowed(["GET", "HEAD"]);
    requireSameOrigin(request, { navigation: true, origin });
    return new Response(pageHtml(sources.lang, mount.base, mount.command), {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  }
  if (path === "/assets/app.js" || path === "/assets/app.css") {
    if (method !== "GET" && method !== "HEAD") methodNotAllowed(["GET", "HEAD"]);
    const js = path.endsWith(".js");
    return new Response(js ? APP_JS : APP_CSS, {
      headers: {
        "content-type": js ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8",
        "cache-control": "no-cache",
      },
    });
  }
  if (!path.startsWith("/api/")) throw new HttpError(404, "not_found");
  requireSameOrigin(request, { origin });
  const name = path.slice("/api/".length);
  if (name === "login") {
    if (method !== "POST") methodNotAllowed(["POST"]);
    if (request.headers.get("origin") === null) throw new HttpError(403, "forbidden");
    const body = await jsonBody(request);
    const code = typeof body.code === "string" ? body.code : "";
    const session = auth.exchange(code);
    if (session === undefined) throw new HttpError(401, "code_invalid");
    return json({ csrf: session.csrf, lang: sources.lang }, 200, {
      "set-cookie": auth.cookie(session),
    });
  }
  const session = requireSession(auth, request);
  if (method === "POST") requireCsrf(auth, request, session);
  switch (name) {
    case "session":
      get(method);
      return json({ csrf: session.csrf, lang: sources.lang });
    case "logout":
      post(method);
      auth.end(session);
      return json({ ok: true }, 200, { "set-cookie": auth.clearCookie() });
    case "overview":
      get(method);
      return json({ status: sources.status(), events: (await sources.recentEvents()).slice(-20) });
    case "spend":
      get(method);
      return json(spendOf(url, sources));
    case "spend.csv": {
      get(method);
      const by = url.searchParams.get("by") ?? "day";
      const report = spendOf(url, sources);
      const csv = spendCsv(report, by);
      return new Response(csv, {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="spend-${by}-${report.period}.csv"`,
        },
      });
    }
    case "events": {
      get(method);
      if (sources.ownerEvents === undefined) throw new HttpError(404, "not_found");
      return eventStreamResponse(sources.ownerEvents, resumeFrom(request, url), {
        ...(sources.closing ? { signal: sources.closing } : {}),
        named: false,
      });
    }
  }
  for (const part of [sources.chat, sources.network, sources.settings, sources.jobs, sources.mcp]) {
    const answer = await part?.route(name, request, url);
    if (answer !== undefined) return answer;
  }
  throw new HttpError(404, "not_found");
}

function get(method: string): void {
  if (method !== "GET" && method !== "HEAD") methodNotAllowed(["GET", "HEAD"]);
}

function post(method: string): void {
  if (method !== "POST") methodNotAllowed(["POST"]);
}
