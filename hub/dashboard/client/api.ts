/**
 * The page's calls to the hub: same origin, the session token in `X-Agent-Session`, the
 * CSRF token too on every `POST`. The token lives in `sessionStorage`, which belongs to
 * this origin (scheme, host and port) and this tab: a reload keeps it, no other port of
 * the host can read it, and the browser never sends it anywhere by itself (a cookie would
 * go to every port of `127.0.0.1`). A new tab of the dashboard borrows it from a tab
 * already signed in over a `BroadcastChannel`, which reaches this origin's tabs only.
 *
 * @module
 */

import { t } from "./i18n.ts";

/** The `sessionStorage` key of the session token. */
const TOKEN_KEY = "agent_dashboard_session";

let csrf = "";

/**
 * Where the dashboard's routes are: the page names its base (`/dashboard` on the hub's
 * control port, `/hub/dashboard` behind a cloud spine) in `#app[data-base]`.
 */
export function apiUrl(path: string): string {
  const base = document.getElementById("app")?.dataset.base ?? "/dashboard";
  return `${base}/api/${path}`;
}

/** Remembers the session's CSRF token. */
export function setCsrf(token: string): void {
  csrf = token;
}

/** Keeps the session token for this tab (a reload keeps it; closing the tab ends it). */
export function setSession(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

/** The channel the dashboard's tabs of this origin share the session over. */
const tabs = new BroadcastChannel("agent-dashboard-session");

tabs.onmessage = (e: MessageEvent) => {
  const token = sessionStorage.getItem(TOKEN_KEY);
  // A new tab asks; a signed-in one answers.
  if (e.data === "ask" && token) tabs.postMessage({ token });
  // Signed out in another tab: the session is over here too.
  if (e.data === "out" && token) dispatchEvent(new Event(SIGNED_OUT));
};

/** The window event a tab hears when another tab of the dashboard signed out. */
export const SIGNED_OUT = "agent-signed-out";

/** Tells the dashboard's other tabs that the session ended. */
export function announceSignOut(): void {
  tabs.postMessage("out");
}

/**
 * Asks the dashboard's other tabs of this origin for their session token (a tab opened
 * by hand, or from a link); `true` when one answered within `waitMs`.
 */
export async function borrowSession(waitMs = 400): Promise<boolean> {
  const { promise, resolve } = Promise.withResolvers<boolean>();
  const listen = (e: MessageEvent) => {
    if (typeof e.data?.token === "string" && e.data.token !== "") {
      setSession(e.data.token);
      resolve(true);
    }
  };
  tabs.addEventListener("message", listen);
  tabs.postMessage("ask");
  const timer = setTimeout(() => resolve(false), waitMs);
  try {
    return await promise;
  } finally {
    clearTimeout(timer);
    tabs.removeEventListener("message", listen);
  }
}

/** Whether this tab holds a session token. */
export function hasSession(): boolean {
  return (sessionStorage.getItem(TOKEN_KEY) ?? "") !== "";
}

/** Forgets the session token (signed out, or the hub no longer knows it). */
export function dropSession(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  csrf = "";
}

/** The headers every call carries: the session token and the page's language. */
export function authHeaders(): Record<string, string> {
  return {
    "x-agent-session": sessionStorage.getItem(TOKEN_KEY) ?? "",
    "x-agent-lang": pageLang(),
  };
}

/**
 * What a failed request says to the person: the hub's sentence; a sentence saying the hub
 * cannot be reached when the request never got an answer (`fetch` rejects with a
 * `TypeError` then: a stopped hub, a dropped network); else `fallback(error)`.
 */
export function failureText(error: unknown, fallback: (error: unknown) => string): string {
  if (error instanceof ApiError && error.detail) return error.detail;
  return unreachable(error) ? t("hub_unreachable") : fallback(error);
}

/** Whether `error` is a request that got no answer at all. */
export function unreachable(error: unknown): boolean {
  return error instanceof TypeError;
}

/** A request the hub refused: its status, its error code and its sentence. */
export class ApiError extends Error {
  status: number;
  code: string;
  /** The hub's sentence, when it gave one. */
  detail: string | undefined;
  /** The form field the sentence is about, when the hub named one. */
  field: string | undefined;
  constructor(status: number, code: string, detail?: string, field?: string) {
    super(`${status} ${code}`);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.field = field;
  }
}

/** The page's language (`i18n.ts` sets it on `<html lang>`): the hub answers in it. */
function pageLang(): string {
  return document.documentElement.lang || "en";
}

async function answer<T>(res: Response): Promise<T> {
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const { error, detail, field } = body as { error?: string; detail?: string; field?: string };
    throw new ApiError(res.status, String(error ?? ""), detail, field);
  }
  return body as T;
}

/** GETs `<base>/api/<path>` and returns the response itself (a CSV, a stream). */
export async function getRaw(
  path: string,
  init: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<Response> {
  const res = await fetch(apiUrl(path), {
    credentials: "omit",
    headers: { ...authHeaders(), ...init.headers },
    ...(init.signal ? { signal: init.signal } : {}),
  });
  if (!res.ok) await answer(res);
  return res;
}

/** GETs `<base>/api/<path>`. */
export async function get<T>(path: string): Promise<T> {
  return await answer<T>(
    await fetch(apiUrl(path), { credentials: "omit", headers: authHeaders() }),
  );
}

/** POSTs JSON to `<base>/api/<path>` with the CSRF token. */
export async function post<T>(path: string, body: unknown = {}): Promise<T> {
  return await answer<T>(
    await fetch(apiUrl(path), {
      method: "POST",
      credentials: "omit",
      headers: {
        ...authHeaders(),
        "content-type": "application/json",
        "x-csrf-token": csrf,
      },
      body: JSON.stringify(body),
    }),
  );
}
