/**
 * What the brain container's port answers (`agent cloud run`): `GET /health` and the
 * hub's channel routes (the messenger's webhook, which the spine hands updates to). Every
 * error becomes the `{error: code}` body here, in one place; an unexpected one is
 * `500 {error: "internal"}` with its text in the log only.
 *
 * @module
 */
import { errorResponse, HttpError, json } from "@agent/net";

/** What {@linkcode brainPortHandler} answers from. */
export interface BrainPortSources {
  /** The running version, for `/health`. */
  version: string;
  /** The hub's `/status` object, or `null` while it is not up. */
  hubStatus(): Promise<unknown>;
  /** The channels' `POST` routes, by path. */
  routes(): Record<string, (request: Request) => Promise<Response>>;
  /** Where the detail of an unexpected error goes. */
  log(line: string): void;
}

/**
 * The brain port's `(Request) => Promise<Response>` handler.
 *
 * @example
 * ```ts
 * import { brainPortHandler } from "./brain_port.ts";
 * const handle = brainPortHandler({
 *   version: "0.1.0", hubStatus: () => Promise.resolve(null), routes: () => ({}), log: () => {},
 * });
 * const res = await handle(new Request("http://127.0.0.1:8080/health"));
 * if ((await res.json()).ok !== true) throw new Error();
 * ```
 */
export function brainPortHandler(
  sources: BrainPortSources,
): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      return await route(request, sources);
    } catch (error) {
      return errorResponse(error, (line) => sources.log(`brain port: ${line}`));
    }
  };
}

async function route(request: Request, sources: BrainPortSources): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (path === "/health" && request.method === "GET") {
    return json({ ok: true, version: sources.version, hub: await sources.hubStatus() });
  }
  const channelRoute = sources.routes()[path];
  if (channelRoute !== undefined && request.method === "POST") return await channelRoute(request);
  await request.body?.cancel();
  throw new HttpError(404, "not_found");
}
