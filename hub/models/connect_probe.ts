/**
 * A TCP connect probe with a timeout. `fetch` has no connect timeout, and a slow model
 * may take far longer than 3 s to send its first byte, so reachability is decided by
 * opening (and closing) one TCP connection before the request.
 *
 * @module
 */

/** How a probe went. */
export type ProbeResult =
  | { ok: true }
  | { ok: false; reason: "connection refused" | "connect timeout" | "host not found" };

/** The connect timeout the spec names for the local model server. */
export const CONNECT_TIMEOUT_MS = 3000;

/** Options for {@linkcode probeConnect}. */
export interface ProbeOptions {
  /** @default 3000 */
  timeoutMs?: number;
  /** Gives up early (the caller's turn was cancelled). */
  signal?: AbortSignal | undefined;
}

/**
 * Opens a TCP connection to the host and port of `url` and closes it again.
 * Resolves `{ok: false}` on refusal, after `timeoutMs` without an answer, or when the
 * name does not resolve; rethrows only the caller's abort.
 */
export async function probeConnect(url: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const parsed = new URL(url);
  const port = parsed.port !== "" ? Number(parsed.port) : parsed.protocol === "https:" ? 443 : 80;
  const hostname = parsed.hostname.replace(/^\[|\]$/g, "");
  const timeoutMs = options.timeoutMs ?? CONNECT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    const conn = await Deno.connect({ hostname, port, signal });
    conn.close();
    return { ok: true };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.aborted) return { ok: false, reason: "connect timeout" };
    if (error instanceof Deno.errors.ConnectionRefused) {
      return { ok: false, reason: "connection refused" };
    }
    if (error instanceof Deno.errors.TimedOut) return { ok: false, reason: "connect timeout" };
    const text = String(error instanceof Error ? error.message : error);
    if (/refused/i.test(text)) return { ok: false, reason: "connection refused" };
    if (/lookup|resolve|name or service|dns/i.test(text)) {
      return { ok: false, reason: "host not found" };
    }
    return { ok: false, reason: "connection refused" };
  }
}
