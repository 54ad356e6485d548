/**
 * The page's calls to the hub: same origin, the session cookie sent by the browser,
 * the CSRF token on every `POST`.
 *
 * @module
 */

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

/** What a failed request says to the person: the hub's sentence, else `fallback(error)`. */
export function failureText(error: unknown, fallback: (error: unknown) => string): string {
  return error instanceof ApiError && error.detail ? error.detail : fallback(error);
}

/** A request the hub refused: its status, its error code and its sentence. */
export class ApiError extends Error {
  status: number;
  code: string;
  /** The hub's sentence, when it gave one. */
  detail: string | undefined;
  constructor(status: number, code: string, detail?: string) {
    super(`${status} ${code}`);
    this.status = status;
    this.code = code;
    this.detail = detail;
  }
}

/** The page's language (`i18n.ts` sets it on `<html lang>`): the hub answers in it. */
function pageLang(): string {
  return document.documentElement.lang || "en";
}

async function answer<T>(res: Response): Promise<T> {
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const { error, detail } = body as { error?: string; detail?: string };
    throw new ApiError(res.status, String(error ?? ""), detail);
  }
  return body as T;
}

/** GETs `<base>/api/<path>`. */
export async function get<T>(path: string): Promise<T> {
  return await answer<T>(
    await fetch(apiUrl(path), {
      credentials: "same-origin",
      headers: { "x-agent-lang": pageLang() },
    }),
  );
}

/** POSTs JSON to `<base>/api/<path>` with the CSRF token. */
export async function post<T>(path: string, body: unknown = {}): Promise<T> {
  return await answer<T>(
    await fetch(apiUrl(path), {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "content-type": "application/json",
        "x-csrf-token": csrf,
        "x-agent-lang": pageLang(),
      },
      body: JSON.stringify(body),
    }),
  );
}
