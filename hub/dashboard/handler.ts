/**
 * The local web dashboard, served by the hub's control API under `/dashboard`: the
 * page and its bundled assets, the one-time sign-in code, the login that trades it for
 * a session token (sent back in `X-Agent-Session`, see `auth.ts`), and the JSON routes
 * the page reads (overview, spend, events) and acts through (the chat, approvals, the
 * network, settings, jobs). Every route but the page, its assets, the code and the login
 * needs the session; every `POST` the CSRF token too. Behind a cloud spine the brain
 * serves the same routes under `/hub/dashboard` (`mount.ts`). Every answer, a refusal
 * too, carries the page's security headers.
 *
 * | Route | What |
 * | --- | --- |
 * | `GET /dashboard/` | the page (no data in it) |
 * | `GET /dashboard/assets/app.js`, `app.css` | the bundled script and stylesheet |
 * | `POST /dashboard/code` | a one-time code (control token needed; `agent dashboard` asks) |
 * | `POST /dashboard/api/login` | `{code}` → `{token, csrf, lang}` |
 * | `GET /dashboard/api/session` | `{csrf, lang}` for a signed-in page |
 * | `POST /dashboard/api/logout` | ends the session |
 * | `GET /dashboard/api/overview` | the hub's status and the latest owner events |
 * | `GET /dashboard/api/spend?period=` | the charts' data (today by hour, the period before), aggregated by the ledger |
 * | `GET /dashboard/api/spend.csv?by=&period=` | one breakdown as CSV |
 * | `GET /dashboard/api/events` | owner events as server-sent events |
 *
 * The parts' routes: `chat.ts`, `network.ts`, `settings.ts`, `jobs.ts`, `mcp.ts`, `memory.ts`.
 *
 * @module
 */
import { errorResponse, HttpError, json, Router } from "@agent/net";
import { jsonBody } from "./body.ts";
import { eventText, type OwnerEvent, ownerEventStream, resumeFrom } from "../events/mod.ts";
import { EVENT_BOOKS } from "../event_books.ts";
import { type Lang, LANGS } from "../i18n.ts";
import { DashboardAuth, type DashboardSession } from "./auth.ts";
import type { DashboardMount } from "./types.ts";
import { requireCsrf, requireSameOrigin, requireSession, secured } from "./guard.ts";
import { pageHtml } from "./page.ts";
import { APP_CSS, APP_JS } from "./_assets.ts";
import { spendCsv } from "./csv.ts";
import { spendOf } from "./spend.ts";
import { localMount } from "./mount.ts";
import type { DashboardDoor, DashboardRoutes, DashboardSources } from "./types.ts";

export type { DashboardDoor, DashboardMount, DashboardRoutes, DashboardSources } from "./types.ts";

function parts(sources: DashboardSources): DashboardRoutes[] {
  return [
    sources.chat,
    sources.network,
    sources.settings,
    sources.jobs,
    sources.mcp,
    sources.memory,
  ].filter(
    (part): part is DashboardRoutes => part !== undefined,
  );
}

/** Builds the dashboard over `sources`. */
export function dashboard(sources: DashboardSources): DashboardDoor {
  const mount = sources.mount ?? localMount();
  const auth = new DashboardAuth({
    ...(mount.sessionKey ? { signingKey: mount.sessionKey } : {}),
    now: sources.now,
    ...(sources.codeTtlMs ? { codeTtlMs: sources.codeTtlMs } : {}),
  });
  const api = [coreRoutes(sources, auth), ...parts(sources)];
  const log = (line: string) => (sources.log ?? console.error)(line);
  // The page and what surrounds the API, below the mount's base.
  const outer = new Router()
    .get("/", (request) => page(request, sources, mount))
    .get("/assets/app.js", () => asset(APP_JS, "text/javascript; charset=utf-8"))
    .get("/assets/app.css", () => asset(APP_CSS, "text/css; charset=utf-8"))
    .post("/code", (request) => {
      // `agent dashboard` asks with the control token (locally), through the spine
      // (in cloud mode); a browser never does.
      if (!sources.authorizeCode?.(request)) throw new HttpError(401, "unauthorized");
      return json({ code: auth.issueCode() });
    })
    .post("/api/login", async (request) => {
      requireSameOrigin(request, { origin: mount.origin(request) });
      if (request.headers.get("origin") === null) throw new HttpError(403, "forbidden");
      const body = await jsonBody(request);
      const session = auth.exchange(typeof body.code === "string" ? body.code : "");
      if (session === undefined) throw new HttpError(401, "code_invalid");
      return json({ token: session.id, csrf: session.csrf, lang: sources.lang });
    })
    .all("/api/*", async (request, { url, params }) => {
      // The checks every API route passes first, in this order: the own origin, the
      // session (so a stranger learns nothing, not even which routes exist), the CSRF
      // token on a write.
      requireSameOrigin(request, { origin: mount.origin(request) });
      const session = requireSession(auth, request);
      if (request.method === "POST") requireCsrf(auth, request, session);
      const path = `/${params["*"]}`;
      for (const routes of api) {
        const answer = await routes.handle(request, session, { url, path });
        if (answer !== undefined) return answer;
      }
      throw new HttpError(404, "not_found");
    });
  return {
    routes: () => [
      ...outer.routes.filter((r) => r.pattern !== "/api/*"),
      ...api.flatMap((routes) =>
        routes.routes.map((r) => ({ methods: r.methods, pattern: `/api${r.pattern}` }))
      ),
    ],
    async handle(request, url) {
      try {
        // The own origin first: a request under a name the dashboard must not answer is
        // refused before anything else (behind a cloud spine, its Host check).
        mount.origin(request);
        // The base itself is its page, as the base with its slash.
        const path = url.pathname === mount.base
          ? "/"
          : url.pathname.startsWith(`${mount.base}/`)
          ? url.pathname.slice(mount.base.length)
          : undefined;
        const answer = path === undefined
          ? undefined
          : await outer.handle(request, undefined, { url, path });
        if (answer === undefined) throw new HttpError(404, "not_found");
        return secured(answer);
      } catch (error) {
        return secured(errorResponse(error, log));
      }
    },
  };
}

function page(
  request: Request,
  sources: DashboardSources,
  mount: DashboardMount,
): Response {
  requireSameOrigin(request, { navigation: true, origin: mount.origin(request) });
  return new Response(pageHtml(sources.lang, mount.base, mount.command), {
    headers: { "content-type": "text/html; charset=utf-8" },
  });
}

function asset(body: string, type: string): Response {
  return new Response(body, { headers: { "content-type": type, "cache-control": "no-cache" } });
}

/** The session, the overview, spend and owner events. */
function coreRoutes(sources: DashboardSources, auth: DashboardAuth): DashboardRoutes {
  return new Router<DashboardSession>()
    .get("/session", (_request, { context }) => json({ csrf: context.csrf, lang: sources.lang }))
    .post("/logout", (_request, { context }) => {
      auth.end(context);
      return json({ ok: true });
    })
    .get(
      "/overview",
      async () =>
        json({
          status: sources.status(),
          events: (await sources.recentEvents()).slice(-20).map(withTexts),
        }),
    )
    .get("/spend", (_request, { url }) => json(spendOf(url, sources)))
    .get("/spend.csv", (_request, { url }) => {
      const by = url.searchParams.get("by") ?? "day";
      const report = spendOf(url, sources);
      return new Response(spendCsv(report, by), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="spend-${by}-${report.period}.csv"`,
        },
      });
    })
    // A stream has no body for HEAD to stand for.
    .on("GET", "/events", (request, { url }) => {
      if (sources.ownerEvents === undefined) throw new HttpError(404, "not_found");
      return ownerEventStream(sources.ownerEvents, resumeFrom(request, url), {
        ...(sources.closing ? { signal: sources.closing } : {}),
        named: false,
        shape: withTexts,
      });
    });
}

/**
 * An owner event with its sentence in every language (`texts`), read now from its
 * `said`, so the page shows it in the page's language whatever the hub's; an event
 * without `said` (an old row, a contact request) has none and shows its `text`.
 */
function withTexts(event: OwnerEvent): OwnerEvent & { texts?: Record<Lang, string> } {
  if (!("said" in event) || event.said === undefined) return event;
  return {
    ...event,
    texts: Object.fromEntries(
      LANGS.map((lang) => [lang, eventText(lang, event, EVENT_BOOKS)]),
    ) as Record<Lang, string>,
  };
}
