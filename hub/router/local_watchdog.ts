/**
 * A local model server that accepts the connection but never answers would hold a turn
 * forever, and the connect probe cannot see it. A live server loading a model answers
 * late too, and must be waited for. So: when no answer (response headers) came within
 * 3 s, the server's own listing (`GET /api/tags`) gets 3 s more. A server that answers
 * it is busy, and the call goes on; one that does not is silent, the call is
 * abandoned, and the role fails over within about 6 s.
 *
 * @module
 */
import { listPulledModels } from "../models/mod.ts";

/** The local server took the connection and then said nothing, not even to `/api/tags`. */
export class ServerSilentError extends Error {
  override name = "ServerSilentError";
  constructor() {
    super("the local model server accepted the connection but did not answer");
  }
}

/** Options for {@linkcode awaitLocalAnswer}. */
export interface LocalAnswerOptions {
  /** The server's base URL (without `/v1`). */
  base: string;
  /** How long the answer may take before the server is asked whether it lives. */
  waitMs: number;
  /** How long `/api/tags` may take. */
  probeMs: number;
  /** The caller's cancellation. */
  signal?: AbortSignal | undefined;
  fetch?: typeof fetch | undefined;
}

/**
 * Starts the call (`start` gets the signal to pass on) and returns its answer, or
 * throws {@linkcode ServerSilentError} when the server proves silent.
 */
export async function awaitLocalAnswer<T>(
  start: (signal: AbortSignal) => PromiseLike<T>,
  options: LocalAnswerOptions,
): Promise<T> {
  const controller = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([controller.signal, options.signal])
    : controller.signal;
  const call = Promise.resolve(start(signal));
  // Abandoned below, the call's rejection must not surface as unhandled.
  call.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = await Promise.race([
    call.then(() => true, () => true),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), options.waitMs);
    }),
  ]);
  clearTimeout(timer);
  if (settled) return await call;
  const alive = await listPulledModels(options.base, {
    timeoutMs: options.probeMs,
    fetch: options.fetch,
  }).then(() => true, () => false);
  if (alive) return await call;
  const silent = new ServerSilentError();
  controller.abort(silent);
  throw silent;
}
