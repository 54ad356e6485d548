/**
 * A small client for the control API, used by `agent hub status`, `doctor` and the TUI.
 *
 * @module
 */
import { bearerHeaders, readHubToken } from "./token.ts";

/** Options for {@linkcode fetchControl}. */
export interface FetchControlOptions {
  /** Give up after this many ms. @default 1500 */
  timeoutMs?: number;
  /**
   * `<data>/hub.token`: its token is sent as `Authorization: Bearer`, read at each call
   * (the hub writes a new one when it restarts). Only `/health` answers without it.
   */
  tokenFile?: string;
  /** Sent as JSON with `POST` (`/approvals/decide`); without it the request is a `GET`. */
  body?: Record<string, unknown>;
}

/**
 * GETs `path` from the control API on `127.0.0.1:<port>` (POSTs `body` when given);
 * `undefined` when no hub answers (refused, timed out, not JSON, or not a 2xx).
 */
export async function fetchControl(
  port: number,
  path: string,
  options: FetchControlOptions = {},
): Promise<Record<string, unknown> | undefined> {
  try {
    const token = options.tokenFile === undefined
      ? undefined
      : await readHubToken(options.tokenFile);
    const post = options.body !== undefined;
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: post ? "POST" : "GET",
      headers: {
        ...bearerHeaders(token),
        ...(post ? { "content-type": "application/json" } : {}),
      },
      ...(post ? { body: JSON.stringify(options.body) } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 1500),
    });
    const body = await res.json();
    return res.ok && typeof body === "object" && body !== null
      ? body as Record<string, unknown>
      : undefined;
  } catch {
    return undefined;
  }
}
