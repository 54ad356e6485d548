/**
 * What the brain container's port answers (`agent cloud run`): `GET /health`, the
 * hub's channel routes (the messenger's webhook, which the spine hands updates to) and
 * the web dashboard under `/hub/dashboard`, which the spine forwards with the hub token
 * (a request without it is refused 401: the dashboard is reached only through the
 * spine; `POST /hub/dashboard/code` is how `agent dashboard --cloud` signs in). Every
 * error becomes the `{error: code}` body here, in one place; an unexpected one is
 * `500 {error: "internal"}` with its text in the log only.
 *
 * @module
 */
import { errorResponse, HttpError, json, Router } from "@agent/net";
import { hasBearer } from "../control/token.ts";
import { type DashboardDoor, isUnder, secured } from "../dashboard/mod.ts";

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
  /** The dashboard behind the spine, once the hub serves it. */
  dashboard?(): DashboardDoor | undefined;
  /** The hub token the spine forwards dashboard requests with. */
  spineToken?: string;
  /**
   * How long a dashboard request waits for the hub to come up before 503 `starting`.
   * @default 20000
   */
  startingWaitMs?: number;
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
    let response: Response;
    try {
      response = await route(request, sources);
    } catch (error) {
      response = errorResponse(error, (line) => sources.log(`brain port: ${line}`));
    }
    // A refusal under the dashboard's path carries the page's headers too.
    return isUnder(request.url, "/hub/dashboard") ? secured(response) : response;
  };
}

async function route(request: Request, sources: BrainPortSources): Promise<Response> {
  const url = new URL(request.url);
  const dashboard = (request: Request) => dashboardRoute(request, url, sources);
  const routes = new Router()
    .on(
      "GET",
      "/health",
      async () => json({ ok: true, version: sources.version, hub: await sources.hubStatus() }),
    )
    .all("/hub/dashboard", dashboard)
    .all("/hub/dashboard/*", dashboard);
  for (const [path, handler] of Object.entries(sources.routes())) {
    routes.post(path, (request) => handler(request));
  }
  const answer = await routes.handle(request, undefined, { url });
  if (answer !== undefined) return answer;
  await request.body?.cancel();
  throw new HttpError(404, "not_found");
}

async function dashboardRoute(
  request: Request,
  url: URL,
  sources: BrainPortSources,
): Promise<Response> {
  // Only the spine (or whoever holds the hub token) reaches the dashboard here.
  if (!sources.spineToken || !hasBearer(request, sources.spineToken)) {
    await request.body?.cancel();
    throw new HttpError(401, "unauthorized");
  }
  // A container woken by this very request answers on its port before the hub inside
  // is up: the request waits for the hub (as the spine waited for the port) rather
  // than showing the person an error.
  const door = await readyDoor(sources, request.signal);
  if (door === undefined) {
    await request.body?.cancel();
    throw new HttpError(503, "starting");
  }
  // The door answers `POST /hub/dashboard/code` too: the hub token was checked above.
  return await door.handle(request, url);
}

/** The dashboard door once the hub serves it, waiting up to `startingWaitMs`. */
async function readyDoor(
  sources: BrainPortSources,
  signal: AbortSignal,
): Promise<DashboardDoor | undefined> {
  const until = Date.now() + (sources.startingWaitMs ?? 20_000);
  let door = sources.dashboard?.();
  while (door === undefined && sources.dashboard && Date.now() < until && !signal.aborted) {
    await new Promise((r) => setTimeout(r, 100));
    door = sources.dashboard();
  }
  return door;
}
