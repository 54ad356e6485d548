/**
 * Sorting provider errors: which mean "the model cannot be reached" (failover), which
 * are throttling (retry), and which end the turn with a sentence.
 *
 * @module
 */
import { APICallError } from "@ai-sdk/provider";
import { errorMessage } from "@agent/net/common";
import { oneLine } from "../text.ts";

/** The status code of a provider's HTTP error, if the error carries one. */
export function statusOf(error: unknown): number | undefined {
  if (APICallError.isInstance(error)) return error.statusCode;
  const status = (error as { statusCode?: unknown; status?: unknown } | null)?.statusCode ??
    (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/**
 * Why a call that failed before anything streamed counts as unreachable, or
 * `undefined` when it does not (429, 4xx, malformed answers, an abort).
 * Refused connections (no status, "Connection refused") and 5xx answers count.
 */
export function unreachableReason(error: unknown): string | undefined {
  if (isAbort(error)) return undefined;
  const status = statusOf(error);
  if (status !== undefined) return status >= 500 ? `HTTP ${status}` : undefined;
  const text = messageChain(error);
  if (/connection refused|econnrefused|os error 111/i.test(text)) return "connection refused";
  if (/accepted the connection but did not answer/.test(text)) return "no answer";
  if (/connection reset|econnreset|broken pipe|os error 104/i.test(text)) {
    return "connection reset";
  }
  if (/dns error|failed to lookup|name or service not known|enotfound/i.test(text)) {
    return "host not found";
  }
  if (/error sending request|tcp connect error|network error|failed to fetch/i.test(text)) {
    return "connection failed";
  }
  return undefined;
}

/** Whether `error` is the caller's cancellation. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError" ||
    (error instanceof Error && error.name === "AbortError");
}

/** The messages of `error` and its causes, joined, for matching. */
export function messageChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let i = 0; i < 5 && current !== undefined && current !== null; i++) {
    parts.push(errorMessage(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(" | ");
}

/** A short, key-free detail of a provider error for a user sentence. */
export function errorDetail(error: unknown): string {
  if (APICallError.isInstance(error)) {
    const body = error.responseBody ?? "";
    const fromBody = providerMessage(body);
    const status = error.statusCode !== undefined ? `HTTP ${error.statusCode}` : "";
    const reason = [status, fromBody ?? error.message].filter((s) => s !== "").join(": ");
    return oneLine(reason, { max: REASON_MAX });
  }
  return oneLine(errorMessage(error), { max: REASON_MAX });
}

/** A user sentence is one line: provider messages may span several. */
/** The longest reason a log line carries. */
const REASON_MAX = 300;

function providerMessage(body: string): string | undefined {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const err = json.error as Record<string, unknown> | string | undefined;
    if (typeof err === "string") return err;
    if (err && typeof err.message === "string") return err.message;
    if (typeof json.message === "string") return json.message;
    if (typeof json.Message === "string") return json.Message;
  } catch { /* not JSON */ }
  return body.trim() === "" ? undefined : body.trim().slice(0, 200);
}
