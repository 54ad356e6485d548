import { errorResponse, HttpError, methodNotAllowed } from "@agent/net";
import { infoResponse, listedResponse, signedRequest, tauResponse } from "./api.ts";
import { storedSnapshotResponse } from "./snapshot_serve.ts";
import { FAVICON_SVG, SITE_CSS } from "./assets.ts";
import { MAP_JS } from "./_map_js.ts";
import { DirectoryClient } from "./directory_client.ts";
import { type Env, universeHost } from "./env.ts";
import { mapApiResponse } from "./map/routes.ts";
import { safeDecode } from "./map/text.ts";
import { type PageLang, pageOf, pagePath, renderNotFound, renderPage } from "./pages.ts";

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

function allow(request: Request, methods: string[]): void {
  if (!methods.includes(request.method)) methodNotAllowed(methods);
}

async function route(request: Request, env: Env, options: HandleOptions): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname;
  const ctx = {
    env,
    host: universeHost(env, url),
    allowInsecure: env.ALLOW_INSECURE_PEERS?.trim() === "1",
    now: options.now ?? Math.floor(Date.now() / 1000),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  if (path.startsWith("/api/")) {
    if (path === "/api/universe") {
      allow(request, ["GET", "HEAD"]);
      return await storedSnapshotResponse(request, ctx);
    }
    if (path === "/api/listed") {
      allow(request, ["POST"]);
      return await listedResponse(request, ctx);
    }
    if (path === "/api/info") {
      allow(request, ["GET", "HEAD"]);
      return infoResponse(ctx);
    }
    if (path.startsWith("/api/taus/")) {
      allow(request, ["GET", "HEAD"]);
      return await tauResponse(safeDecode(path.slice("/api/taus/".length)), ctx);
    }
    if (path.startsWith("/api/map/")) {
      allow(request, ["GET", "HEAD"]);
      return await mapApiResponse(path.slice("/api/map/".length), url, env.DIRECTORY, ctx.now);
    }
    const kind = path.slice("/api/".length);
    if (kind === "join" || kind === "report" || kind === "leave") {
      allow(request, ["POST"]);
      return await signedRequest(request, kind, ctx);
    }
    throw new HttpError(404, "not_found");
  }
  const asset = ASSETS[path];
  if (asset !== undefined) {
    allow(request, ["GET", "HEAD"]);
    return new Response(asset.body, {
      headers: {
        "content-type": asset.type,
        "Cache-Control": "public, max-age=3600",
        "X-Content-Type-Options": "nosniff",
      },
    });
  }
  if (path === "/tr") return redirect("/tr/");
  const page = pageOf(path);
  if (page === undefined) return notFound(request, path);
  allow(request, ["GET", "HEAD"]);
  // ?lang= stores the choice and goes to the clean URL of the page in that language.
  const asked = url.searchParams.get("lang");
  if (asked === "en" || asked === "tr") {
    return redirect(pagePath(page.page, asked), {
      "Set-Cookie": `lang=${asked}; Path=/; Max-Age=31536000; SameSite=Lax${
        url.protocol === "https:" ? "; Secure" : ""
      }`,
    });
  }
  if (path === "/" && preferredLang(request) === "tr") return redirect("/tr/", { Vary: VARY });
  return new Response(renderPage(page.page, page.lang, { origin: url.origin }), {
    headers: {
      "content-type": "text/html; charset=utf-8",
      // The landing page depends on the cookie and the browser's languages.
      "Cache-Control": path === "/" ? "private, max-age=0" : "public, max-age=300",
      ...(path === "/" ? { Vary: VARY } : {}),
      ...PAGE_HEADERS,
    },
  });
}

const VARY = "Cookie, Accept-Language";

const SVG = "image/svg+xml";
const ASSETS: Record<string, { body: string; type: string }> = {
  "/assets/site.css": { body: SITE_CSS, type: "text/css; charset=utf-8" },
  "/assets/map.js": { body: MAP_JS, type: "text/javascript; charset=utf-8" },
  "/favicon.svg": { body: FAVICON_SVG, type: SVG },
  "/favicon.ico": { body: FAVICON_SVG, type: SVG },
};

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
