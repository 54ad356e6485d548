/**
 * The HTTP error model every HTTP surface shares (the spine, the universe and the hub's
 * control API): a thrown {@linkcode HttpError} becomes the spec's `{error: code}` body in
 * one place, {@linkcode errorResponse}; plus JSON responses and capped body reading. Web
 * APIs only.
 *
 * @example
 * ```ts
 * import { errorResponse, HttpError } from "./http.ts";
 * const res = errorResponse(new HttpError(404, "not_found"));
 * if (res.status !== 404 || (await res.json()).error !== "not_found") throw new Error();
 * ```
 *
 * @module
 */
import { errorMessage } from "./error_message.ts";
import { concatBytes } from "./_keys.ts";

/** An HTTP failure with the spec's error code; the router turns it into `{error: code}`. */
export class HttpError extends Error {
  override name = "HttpError";
  /** The HTTP status. */
  readonly status: number;
  /** The spec's error code, e.g. `bad_request`. */
  readonly code: string;
  /** Optional `detail` for the body (only `bad_request` carries one). */
  readonly detail: string | undefined;
  /** Extra response headers, e.g. `Allow` on a 405. */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    options: { detail?: string; headers?: Record<string, string> } = {},
  ) {
    super(`HTTP ${status}: ${code}${options.detail ? ` (${options.detail})` : ""}`);
    this.status = status;
    this.code = code;
    this.detail = options.detail;
    this.headers = options.headers ?? {};
  }
}

/** A JSON response with the given status and headers. */
export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const h = new Headers(headers);
  h.set("content-type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status, headers: h });
}

/**
 * Turns anything thrown while handling a request into the spec's error body. Unknown
 * errors become 500 `internal` and are logged without their stack.
 */
export function errorResponse(
  error: unknown,
  log: (line: string) => void = console.error,
): Response {
  if (error instanceof HttpError) {
    const body: Record<string, string> = { error: error.code };
    if (error.detail !== undefined) body.detail = error.detail;
    return json(body, error.status, error.headers);
  }
  log(`internal: ${errorMessage(error)}`);
  return json({ error: "internal" }, 500);
}

/**
 * `response` with `headers` set over its own; `keep` names headers set only when the
 * response has none of its own (a route's `Cache-Control` wins over a default).
 *
 * @example
 * ```ts
 * import { withHeaders } from "./http.ts";
 * const res = withHeaders(new Response("x", { status: 404 }), { "x-frame-options": "DENY" });
 * if (res.status !== 404 || res.headers.get("x-frame-options") !== "DENY") throw new Error();
 * ```
 */
export function withHeaders(
  response: Response,
  headers: Readonly<Record<string, string>>,
  keep: Readonly<Record<string, string>> = {},
): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  for (const [name, value] of Object.entries(keep)) if (!merged.has(name)) merged.set(name, value);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: merged,
  });
}

/** Throws 405 `method_not_allowed` with an `Allow` header listing `allowed`. */
export function methodNotAllowed(allowed: string[]): never {
  throw new HttpError(405, "method_not_allowed", { headers: { Allow: allowed.join(", ") } });
}

/**
 * Reads a body of at most `max` bytes, stopping as soon as it grows past the limit.
 * Throws 413 `too_large` when it does (a `Content-Length` above `max` fails before
 * anything is read).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  max: number,
  declaredLength?: string | null,
): Promise<Uint8Array> {
  if (declaredLength != null && /^\d+$/.test(declaredLength) && Number(declaredLength) > max) {
    if (body !== null) {
      // Far over the limit: refused unread. A little over: read and dropped, like a
      // streamed body, so the connection stays clean for the client's next request
      // (refused unread, workerd cannot reuse it and the client's next request on it
      // is reset). Every body within the limit is read to its declared length anyway.
      if (Number(declaredLength) - max > DRAIN_BYTES) await body.cancel().catch(() => {});
      else await drain(body.getReader(), 0, DRAIN_BYTES);
    }
    throw new HttpError(413, "too_large");
  }
  if (body === null) return new Uint8Array(0);
  const bytes = await readLimited(body, max);
  if (bytes === undefined) throw new HttpError(413, "too_large");
  return bytes;
}

/**
 * Reads a request body of at most `max` bytes (413 `too_large` past it). With a
 * `Content-Length` within the limit the body is read in one native call, since the
 * runtime's HTTP parser holds the body to its declared length; without one it is
 * streamed and cut off as soon as it grows past `max`.
 */
export async function readRequestBody(request: Request, max: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared === null || !/^\d+$/.test(declared) || request.body === null) {
    return await readCapped(request.body, max, declared);
  }
  if (Number(declared) > max) return await readCapped(request.body, max, declared);
  const bytes = new Uint8Array(await request.arrayBuffer());
  // Outside a real HTTP server (tests) nothing holds the body to its declared length.
  if (bytes.byteLength > max) throw new HttpError(413, "too_large");
  return bytes;
}

/** Options for {@linkcode readLimited}. */
export interface ReadLimitedOptions {
  /**
   * How much past `max` is still read and dropped before the stream is cancelled: a
   * server answering a request drains a little so the connection survives; a client
   * reading a response needs none.
   * @default 1 MiB
   */
  drainBytes?: number;
}

/**
 * Reads a stream of at most `max` bytes; returns `undefined` (and cancels the stream)
 * as soon as it grows past the limit.
 */
export async function readLimited(
  body: ReadableStream<Uint8Array>,
  max: number,
  options: ReadLimitedOptions = {},
): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await drain(reader, size - max, options.drainBytes ?? DRAIN_BYTES);
      return undefined;
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : concatBytes(...chunks);
}

/**
 * How much past the limit an oversize body is still read and dropped before the 413.
 * Answering while a client is still sending, or leaving its body unread, makes it see a
 * reset connection instead of the 413; a client that overshoots by a little gets its
 * answer, a huge body is still cut off.
 */
const DRAIN_BYTES = 1024 * 1024;

/** Reads and drops the rest of a body while no more than `limit` bytes were dropped. */
async function drain(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  over: number,
  limit: number,
): Promise<void> {
  try {
    while (over <= limit) {
      const { done, value } = await reader.read();
      if (done) return;
      over += value.byteLength;
    }
    await reader.cancel();
  } catch { /* the client went away: nothing to answer */ }
}

/** Parses UTF-8 JSON from bytes; throws 400 `bad_request` when it is not JSON. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new HttpError(400, "bad_request", { detail: "body is not UTF-8 JSON" });
  }
}

/** Whether a `Content-Type` value is `application/json`, parameters allowed. */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const essence = value.split(";", 1)[0]!.trim().toLowerCase();
  return essence === "application/json";
}
