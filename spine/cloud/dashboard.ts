/**
 * `/hub/dashboard` (cloud mode): the brain's web dashboard, reached through the spine.
 * A browser holds no bearer token, so these routes come before the hub API's bearer
 * check; the brain's own login (a one-time code traded once for a signed session token
 * the page keeps in `sessionStorage` and sends in `X-Agent-Session`), its `Origin`,
 * `Sec-Fetch-Site` and CSRF checks decide what a request may do. The spine wakes the
 * brain, forwards the headers the dashboard reads (never the browser's
 * `Authorization` or cookies), vouches with its own hub token and names the origin it
 * was reached at; answers, the event streams included, pass back unbuffered.
 * `POST /hub/dashboard/code`, the one-time code `agent dashboard --cloud` asks for,
 * needs the hub token here as on every hub route.
 *
 * @module
 */
import {
  DASHBOARD_ORIGIN_HEADER,
  DASHBOARD_SECURITY_HEADERS,
  DASHBOARD_SESSION_HEADER,
  errorMessage,
  errorResponse,
  HttpError,
  readRequestBody,
  withHeaders,
} from "@agent/net";
import { requireBearer } from "../auth.ts";
import type { Env } from "../env.ts";
import { BRAIN_WAIT_MS, brainFetch, withDeadline } from "./brain_link.ts";
import { CLOUD_BODY_MAX_BYTES } from "./body.ts";
import { requireCloudMode } from "./routes.ts";

/** The dashboard's path prefix on the spine. */
export const DASHBOARD_BASE = "/hub/dashboard";

/** The request headers the dashboard reads, passed on as the browser sent them. */
const FORWARDED = [
  "accept",
  "content-type",
  DASHBOARD_SESSION_HEADER,
  "last-event-id",
  "origin",
  "sec-fetch-dest",
  "sec-fetch-mode",
  "sec-fetch-site",
  "x-csrf-token",
  "x-agent-lang",
] as const;

/**
 * One dashboard request, forwarded to the brain (woken when needed). A refusal made here
 * (local mode, no brain, no hub token for a code) carries the dashboard's headers, as the
 * brain's own answers do.
 */
export async function handleDashboard(request: Request, url: URL, env: Env): Promise<Response> {
  try {
    return await forward(request, url, env);
  } catch (error) {
    return withHeaders(errorResponse(error), DASHBOARD_SECURITY_HEADERS, {
      "cache-control": "no-store",
    });
  }
}

async function forward(request: Request, url: URL, env: Env): Promise<Response> {
  requireCloudMode(env);
  if (!env.HUB_TOKEN) throw new HttpError(503, "not_configured");
  if (url.pathname === `${DASHBOARD_BASE}/code`) requireBearer(request, env.HUB_TOKEN);
  const brain = brainFetch(env);
  if (brain === undefined) {
    await request.body?.cancel();
    throw new HttpError(503, "brain_unavailable");
  }
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  headers.set("authorization", `Bearer ${env.HUB_TOKEN}`);
  headers.set(DASHBOARD_ORIGIN_HEADER, url.origin);
  const body = request.method === "GET" || request.method === "HEAD"
    ? undefined
    : (await readRequestBody(request, CLOUD_BODY_MAX_BYTES)).slice().buffer;
  let answer: Response;
  try {
    answer = await withDeadline(
      brain(`${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        ...(body === undefined ? {} : { body }),
        // An event stream lasts as long as the page: no deadline past the answer's start.
        signal: request.signal,
      }),
      BRAIN_WAIT_MS,
    );
  } catch (error) {
    console.warn(`brain_unavailable: ${errorMessage(error)}`);
    throw new HttpError(503, "brain_unavailable");
  }
  // The body is passed on as a stream: server-sent events arrive as they are written.
  // No cookie in either direction: the dashboard's session is a header (a cookie for this
  // host would reach every page on it, `/hub/dashboard` or not).
  const back = new Headers(answer.headers);
  back.delete("set-cookie");
  return new Response(answer.body, { status: answer.status, headers: back });
}
