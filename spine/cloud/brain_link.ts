/**
 * Reaching the brain: the container bound as `BRAIN` (started when needed, waited for
 * up to 90 s), or, while developing, a brain process at `BRAIN_URL` (`agent cloud run`
 * on this machine), so the whole cloud mode but the container runs locally.
 *
 * @module
 */
import type { DurableObjectNamespace } from "@cloudflare/workers-types/index.ts";
import type { Env } from "../env.ts";

/** The most the spine waits for a brain to start and answer (ms). */
export const BRAIN_WAIT_MS = 90_000;

interface BrainStub {
  wake(): Promise<void>;
  fetch(request: Request): Promise<Response>;
}

/** Sends `path` to the brain; `undefined` when no brain is bound. */
export type BrainFetch = (path: string, init?: RequestInit) => Promise<Response>;

/** How this spine reaches its brain, or `undefined` when it has none. */
export function brainFetch(env: Env): BrainFetch | undefined {
  const direct = env.BRAIN_URL?.trim().replace(/\/+$/, "");
  if (direct) {
    // A caller's own signal (an event stream's) replaces the deadline.
    return (path, init = {}) =>
      fetch(`${direct}${path}`, { signal: AbortSignal.timeout(BRAIN_WAIT_MS), ...init });
  }
  const namespace = env.BRAIN as DurableObjectNamespace | undefined;
  if (namespace === undefined) return undefined;
  return async (path, init = {}) => {
    const stub = namespace.get(namespace.idFromName("brain")) as unknown as BrainStub;
    await stub.wake();
    // A signal does not cross into the Durable Object; the request ends with its caller.
    const { signal: _signal, ...rest } = init;
    return await stub.fetch(new Request(`http://brain${path}`, rest));
  };
}

/** Rejects after `ms` with a timeout error. */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
