import { errorResponse, HttpError, Router } from "@agent/net";
import {
  type ApiContext,
  infoResponse,
  listedResponse,
  signedRequest,
  tauResponse,
} from "./api.ts";
import { storedSnapshotResponse } from "./snapshot_serve.ts";
import { FAVICON_SVG, SITE_CSS } from "./assets.ts";
import { MAP_JS } from "./_map_js.ts";
import { DirectoryClient } from "./directory_client.ts";
import { type Env, universeHost } from "./env.ts";
import { mapApiResponse } from "./map/routes.ts";
import { safeDecode } from "./map/text.ts";
import { type PageLang, type PageName, pagePath, renderNotFound, renderPage } from "./pages.ts";

/** The three headers every page carries. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

/** Options for {@linkcode handleRequest}. */
export interface HandleOptions {
  /** The clock, Unix seconds. @default now */
  now?: number;
  /** The fetch cards are read with. */
  fetch?: typeof fetch;
}

/** The universe's fetch handler: every error becomes `{error: code}` here. */
export async function handleRequest(
  request: Request,
  env: Env,
  options: HandleOptions = {},
): Promise<Response> {
  try {
    return await route(request, env, options);
  } catch (error) {
    return errorResponse(error);
  }
}

const VARY = "Cookie, Accept-Language";

const SVG = "image/svg+xml";
const ASSETS: Record<string, { body: string; type: string }> = {
  "/assets/site.css": { body: SITE_CSS, type: "text/css; charset=utf-8" },
  "/assets/map.js": { body: MAP_JS, type: "text/javascript; charset=utf-8" },
  "/favicon.svg": { body: FAVICON_SVG, type: SVG },
  "/favicon.ico": { body: FAVICON_SVG, type: SVG },
};

/** The API's routes; an unknown path under `/api/` is a JSON 404. */
const API = new Router<ApiContext>()
  .get("/api/universe", (request, { context }) => storedSnapshotResponse(request, context))
  .post("/api/listed", (request, { context }) => listedResponse(request, context))
  .get("/api/info", (_request, { context }) => infoResponse(context))
  .get(
    "/api/taus/*",
    (_request, { params, context }) => tauResponse(safeDecode(params["*"]!), context),
  )
  .get(
    "/api/map/*",
    (_request, { url, params, context }) =>
      mapApiResponse(params["*"]!, url, context.env.DIRECTORY, context.now),
  )
  .post("/api/join", (request, { context }) => signedRequest(request, "join", context))
  .post("/api/report", (request, { context }) => signedRequest(request, "report", context))
  .post("/api/leave", (request, { context }) => signedRequest(request, "leave", context));

/** The assets and the pages; an unknown path outside `/api/` is the 404 page. */
const SITE = new Router<ApiContext>().all("/tr", () => redirect("/tr/"));
for (const [path, asset] of Object.entries(ASSETS)) {
  SITE.get(path, () =>
    new Response(asset.body, {
      headers: {
        "content-type": asset.type,
        "Cache-Control": "public, max-age=3600",
        "X-Content-Type-Options": "nosniff",
      },
    }));
}
for (const page of ["landing", "how", "universe"] as const) {
  for (const lang of ["en", "tr"] as const) {
    SITE.get(pagePath(page, lang), (request, { url }) => pageResponse(request, url, page, lang));
  }
}

async function route(request: Request, env: Env, options: HandleOptions): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname;
  const ctx: ApiContext = {
    env,
    host: universeHost(env, url),
    allowInsecure: env.ALLOW_INSECURE_PEERS?.trim() === "1",
    now: options.now ?? Math.floor(Date.now() / 1000),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  if (path.startsWith("/api/")) {
    const answer = await API.handle(request, ctx, { url });
    if (answer !== undefined) return answer;
    await request.body?.cancel();
    throw new HttpError(404, "not_found");
  }
  return await SITE.handle(request, ctx, { url }) ?? notFound(request, path);
}

/** A page in `lang`; `?lang=` stores the choice and goes to the page's clean URL in it. */
function pageResponse(request: Request, url: URL, page: PageName, lang: PageLang): Response {
  const path = url.pathname;
  const asked = url.searchParams.get("lang");
  if (asked === "en" || asked === "tr") {
    return redirect(pagePath(page, asked), {
      "Set-Cookie": `lang=${asked}; Path=/; Max-Age=31536000; SameSite=Lax${
        url.protocol === "https:" ? "; Secure" : ""
      }`,
    });
  }
  if (path === "/" && preferredLang(request) === "tr") return redirect("/tr/", { Vary: VARY });
  return new Response(renderPage(page, lang, { origin: url.origin }), {
    headers: {
      "content-type": "text/html; charset=utf-8",
      // The landing page depends on the cookie and the browser's languages.
      "Cache-Control": path === "/" ? "private, max-age=0" : "public, max-age=300",
      ...(path === "/" ? { Vary: VARY } : {}),
      ...PAGE_HEADERS,
    },
  });
}

/** An unknown path outside `/api/`: a page in the path's language, else the reader's. */
function notFound(request: Request, path: string): Response {
  const lang = path === "/tr" || path.startsWith("/tr/") ? "tr" : preferredLang(request);
  return new Response(request.method === "HEAD" ? null : renderNotFound(lang), {
    status: 404,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      Vary: VARY,
      ...PAGE_HEADERS,
    },
  });
}

function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, {
    status: 302,
    headers: { Location: location, ...PAGE_HEADERS, ...headers },
  });
}

/**
 * The language `/` opens in: the `lang` cookie when set, else Turkish when the browser's
 * most preferred language is, else English.
 */
export function preferredLang(request: Request): PageLang {
  const cookie = request.headers.get("cookie") ?? "";
  const stored = cookie.match(/(?:^|;\s*)lang=(en|tr)(?:;|$)/)?.[1];
  if (stored === "en" || stored === "tr") return stored;
  const header = request.headers.get("accept-language") ?? "";
  let best: { lang: string; q: number } | undefined;
  for (const part of header.split(",")) {
    const [tag = "", ...params] = part.trim().split(";");
    const q = Number(params.find((p) => p.trim().startsWith("q="))?.trim().slice(2) ?? "1");
    const lang = tag.trim().toLowerCase().split("-")[0] ?? "";
    if (lang && lang !== "*" && Number.isFinite(q) && (best === undefined || q > best.q)) {
      best = { lang, q };
    }
  }
  return best?.lang === "tr" ? "tr" : "en";
}

/** The hourly cron: expired agents and old rate rows go. */
export async function runCron(env: Env, scheduledTimeMs: number): Promise<void> {
  await new DirectoryClient(env.DIRECTORY).cron(Math.floor(scheduledTimeMs / 1000));
}
