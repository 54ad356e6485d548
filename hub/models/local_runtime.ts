/**
 * The local model server's own listing (`GET /api/tags`), for `doctor`: which models
 * are pulled.
 *
 * @module
 */
import { CONNECT_TIMEOUT_MS } from "./connect_probe.ts";

/** Options for {@linkcode listPulledModels}. */
export interface ListPulledOptions {
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** Gives up after this long. @default 3000 */
  timeoutMs?: number | undefined;
}

/**
 * The model names the server at `base` (without `/v1`) has pulled. Throws `Error`
 * ("Cannot list the local models: ...") when the server does not answer properly.
 */
export async function listPulledModels(
  base: string,
  options: ListPulledOptions = {},
): Promise<string[]> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(`${base}/api/tags`, {
      signal: AbortSignal.timeout(options.timeoutMs ?? CONNECT_TIMEOUT_MS),
    });
  } catch (error) {
    const detail = error instanceof DOMException && error.name === "TimeoutError"
      ? "no answer within 3 s"
      : /refused/i.test(`${error} ${(error as Error)?.cause ?? ""}`)
      ? "connection refused"
      : String((error as Error)?.cause ?? error);
    throw new Error(`Cannot list the local models: ${base}: ${detail}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`Cannot list the local models: ${base}/api/tags answered ${response.status}`);
  }
  const body = await response.json().catch(() => undefined) as
    | { models?: { name?: unknown; model?: unknown }[] }
    | undefined;
  if (!body || !Array.isArray(body.models)) {
    throw new Error(`Cannot list the local models: ${base}/api/tags answered no model list`);
  }
  return body.models
    .map((m) => typeof m.name === "string" ? m.name : typeof m.model === "string" ? m.model : "")
    .filter((n) => n !== "");
}

/**
 * Whether `modelId` is among `pulled`; `llama3` matches `llama3:latest` as the
 * server itself does.
 */
export function isPulled(modelId: string, pulled: readonly string[]): boolean {
  const want = modelId.includes(":") ? modelId : `${modelId}:latest`;
  return pulled.some((name) => name === modelId || name === want);
}
