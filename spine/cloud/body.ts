/**
 * Request bodies and path segments of the cloud routes: one body at most 1 MiB, JSON
 * objects with the keys a route needs, ids checked against their patterns (400).
 *
 * @module
 */
import { HttpError, parseJsonBody, readRequestBody } from "@agent/net";

/** A single cloud-route body at most (state values, session bodies). */
export const CLOUD_BODY_MAX_BYTES = 1024 * 1024;

/** Reads a JSON object body of at most 1 MiB (413 past it, 400 when it is not an object). */
export async function readObject(request: Request): Promise<Record<string, unknown>> {
  const body = parseJsonBody(await readRequestBody(request, CLOUD_BODY_MAX_BYTES));
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new HttpError(400, "bad_request", { detail: "the body must be a JSON object" });
  }
  return body as Record<string, unknown>;
}

/** The value of `key` in `body`; 400 when the key is missing. */
export function field(body: Record<string, unknown>, key: string): unknown {
  if (!Object.hasOwn(body, key)) {
    throw new HttpError(400, "bad_request", { detail: `'${key}' is missing` });
  }
  return body[key];
}

/** A path segment, URL-decoded; `undefined` when it does not decode. */
export function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Checks an id against `valid`; 400 `bad_request` naming `what` otherwise. */
export function checkId(id: unknown, valid: (id: string) => boolean, what: string): string {
  if (typeof id !== "string" || !valid(id)) {
    throw new HttpError(400, "bad_request", { detail: `invalid ${what}` });
  }
  return id;
}

/** A message id from a path segment or a body: an integer at least 0 (400 otherwise). */
export function messageId(value: unknown): number {
  const n = typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
    throw new HttpError(400, "bad_request", { detail: "invalid message id" });
  }
  return n;
}

/**
 * An optional integer query parameter within `min..max` (400 otherwise); `fallback` when
 * it is absent.
 */
export function intParam(
  params: URLSearchParams,
  name: string,
  min: number,
  max: number,
  fallback: number | undefined,
): number | undefined {
  const values = params.getAll(name);
  if (values.length === 0) return fallback;
  const value = values[0]!;
  if (values.length > 1 || !/^\d{1,9}$/.test(value) || +value < min || +value > max) {
    throw new HttpError(400, "bad_request", {
      detail: `'${name}' must be an integer from ${min} to ${max}`,
    });
  }
  return Number(value);
}
