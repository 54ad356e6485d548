/**
 * A small client for the control API, used by `agent hub status` and `doctor`.
 *
 * @module
 */

/** Options for {@linkcode fetchControl}. */
export interface FetchControlOptions {
  /** Give up after this many ms. @default 1500 */
  timeoutMs?: number;
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
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
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
