/**
 * Signing in to a hub's dashboard from a test as its page does, for the tests that call
 * the dashboard's API without a browser (the desk suite's web chat, the jobs' Run now):
 * the owner's one-time code traded once for the page's session token, then sent in
 * `X-Agent-Session` with every request, and the CSRF token with every write. There is
 * no cookie to fall back on: a cookie for `127.0.0.1` would reach every port of it.
 *
 * @module
 */
import { DASHBOARD_SESSION_HEADER } from "@agent/net";
import { controlFetch } from "./_control.ts";

/** A `fetch` of the dashboard's API (`<base>/dashboard/api/<path>`) with the page's credential. */
export type DashboardApi = (path: string, init?: RequestInit) => Promise<Response>;

/** A signed-in page: its session token, its CSRF token and its API. */
export interface DashboardSignIn {
  /** The session token (what the page keeps in `sessionStorage`). */
  token: string;
  csrf: string;
  api: DashboardApi;
}

/**
 * Trades the one-time `code` at the hub on `base` (`http://127.0.0.1:<port>`) as the
 * page does. Throws when the hub refuses it or answers no session token.
 */
export async function dashboardLogin(base: string, code: string): Promise<DashboardSignIn> {
  // What the browser adds to the page's own requests.
  const page = { origin: base, "sec-fetch-site": "same-origin" };
  const login = await fetch(`${base}/dashboard/api/login`, {
    method: "POST",
    headers: { ...page, "content-type": "application/json" },
    body: JSON.stringify({ code }),
  });
  if (!login.ok) throw new Error(`the dashboard refused the sign-in: ${login.status}`);
  const { csrf, token } = await login.json() as { csrf: string; token?: string };
  if (typeof token !== "string" || token === "") {
    throw new Error("the dashboard answered the sign-in without a session token");
  }
  const api: DashboardApi = (path, init = {}) => {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(page)) headers.set(name, value);
    headers.set(DASHBOARD_SESSION_HEADER, token);
    if ((init.method ?? "GET") !== "GET") {
      headers.set("x-csrf-token", csrf);
      headers.set("content-type", "application/json");
    }
    return fetch(`${base}/dashboard/api/${path}`, { ...init, headers });
  };
  return { token, csrf, api };
}

/**
 * Signs in to the hub process on `port` as `agent dashboard` and its page do: a
 * one-time code asked for with the control token, then traded.
 */
export async function dashboardSignIn(port: number): Promise<DashboardSignIn> {
  const issued = await controlFetch(port, "/dashboard/code", { method: "POST" });
  if (!issued.ok) throw new Error(`the hub issued no sign-in code: ${issued.status}`);
  const { code } = await issued.json() as { code: string };
  return await dashboardLogin(`http://127.0.0.1:${port}`, code);
}
