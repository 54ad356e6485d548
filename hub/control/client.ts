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
}

/**
 * GETs `path` from the control API on `127.0.0.1:<port>`; `undefined` when no hub
 * answers (refused, timed out, or not JSON).
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
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      headers: bearerHeaders(token),
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
