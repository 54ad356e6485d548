/**
 * The route table every HTTP surface shares (the spine, the universe, the hub's control
 * API, its dashboard and web chat): a path pattern, the methods it answers and its
 * handler, in one list. The method guard lives here and nowhere else: a path that is
 * known under other methods is `405 method_not_allowed` with an `Allow` header naming
 * them, a path that is not known is left to the caller (usually 404 `not_found`). Errors
 * are thrown as {@linkcode HttpError} and turned into the `{error: code}` body by the
 * surface's one `errorResponse()`. Web APIs only: Workers import it too.
 *
 * A pattern is a path of literal segments, `:name` segments (one non-empty segment,
 * handed to the handler undecoded in `params.name`) and an optional `*` at the end (the
 * rest of the path, possibly empty, in `params["*"]`).
 *
 * @example
 * ```ts
 * import { Router } from "./router.ts";
 * const routes = new Router()
 *   .get("/items/:id", (_request, { params }) => Response.json({ id: params.id }))
 *   .post("/items", () => new Response(null, { status: 201 }));
 * const res = await routes.handle(new Request("http://x/items/7"), undefined);
 * if ((await res!.json()).id !== "7") throw new Error();
 * try {
 *   await routes.handle(new Request("http://x/items", { method: "DELETE" }), undefined);
 *   throw new Error("unreachable");
 * } catch (e) {
 *   if ((e as { status?: number }).status !== 405) throw e;
 * }
 * ```
 *
 * @module
 */
import { methodNotAllowed } from "./http.ts";

/** What a handler gets besides the request. */
export interface RouteInput<C> {
  /** The request's URL, parsed once. */
  url: URL;
  /** The pattern's `:name` segments (undecoded) and `*`. */
  params: Readonly<Record<string, string>>;
  /** What the surface hands every route (its environment, its sources). */
  context: C;
}

/** A route's handler. */
export type RouteHandler<C> = (
  request: Request,
  input: RouteInput<C>,
) => Response | Promise<Response>;

/** Options for {@linkcode Router.handle}. */
export interface RouteOptions {
  /** The request's URL, when already parsed. @default new URL(request.url) */
  url?: URL;
  /** The path to match. @default the URL's path */
  path?: string;
}

/** One row of the table, as {@linkcode Router.routes} lists it. */
export interface RouteEntry {
  /** The methods it answers, `HEAD` included where `GET` brings it; `*` for any. */
  methods: readonly string[];
  pattern: string;
}

/** A route that matched a method and a path. */
export interface RouteMatch<C> {
  handler: RouteHandler<C>;
  params: Record<string, string>;
  entry: RouteEntry;
}

interface Row<C> extends RouteEntry {
  segments: readonly string[];
  rest: boolean;
  handler: RouteHandler<C>;
}

/** A table of routes; `C` is what every handler receives as `input.context`. */
export class Router<C = undefined> {
  #rows: Row<C>[] = [];

  /** Adds a route answering `methods` at `pattern`. */
  on(methods: string | readonly string[], pattern: string, handler: RouteHandler<C>): this {
    if (!pattern.startsWith("/")) {
      throw new TypeError(`Cannot add the route: '${pattern}' does not start with '/'`);
    }
    const segments = pattern.split("/").slice(1);
    const rest = segments.at(-1) === "*";
    if (rest) segments.pop();
    if (segments.includes("*")) {
      throw new TypeError(`Cannot add the route: '*' may only end the pattern '${pattern}'`);
    }
    this.#rows.push({
      methods: typeof methods === "string" ? [methods] : [...methods],
      pattern,
      segments,
      rest,
      handler,
    });
    return this;
  }

  /** `GET` (and `HEAD`, answered by the same handler; the server sends no body). */
  get(pattern: string, handler: RouteHandler<C>): this {
    return this.on(["GET", "HEAD"], pattern, handler);
  }

  /** `POST`. */
  post(pattern: string, handler: RouteHandler<C>): this {
    return this.on("POST", pattern, handler);
  }

  /** `PUT`. */
  put(pattern: string, handler: RouteHandler<C>): this {
    return this.on("PUT", pattern, handler);
  }

  /** `PATCH`. */
  patch(pattern: string, handler: RouteHandler<C>): this {
    return this.on("PATCH", pattern, handler);
  }

  /** `DELETE`. */
  delete(pattern: string, handler: RouteHandler<C>): this {
    return this.on("DELETE", pattern, handler);
  }

  /** Every method (a part mounted there guards its own). */
  all(pattern: string, handler: RouteHandler<C>): this {
    return this.on("*", pattern, handler);
  }

  /** Every route, in the order they were added (for tests and docs). */
  get routes(): readonly RouteEntry[] {
    return this.#rows.map(({ methods, pattern }) => ({ methods, pattern }));
  }

  /**
   * The route for `method` at `path`; `undefined` when no pattern matches the path.
   * Throws 405 `method_not_allowed` (with `Allow`) when some do, under other methods.
   */
  find(method: string, path: string): RouteMatch<C> | undefined {
    const parts = path.split("/").slice(1);
    const allowed = new Set<string>();
    for (const row of this.#rows) {
      const params = matchPath(row, parts);
      if (params === undefined) continue;
      if (row.methods.includes(method) || row.methods.includes("*")) {
        return {
          handler: row.handler,
          params,
          entry: { methods: row.methods, pattern: row.pattern },
        };
      }
      for (const m of row.methods) allowed.add(m);
    }
    if (allowed.size > 0) methodNotAllowed([...allowed]);
    return undefined;
  }

  /**
   * Answers `request` with its route; `undefined` when no route's path matches (the
   * caller decides: usually 404, or another table). Throws what the handler throws, and
   * 405 for a known path under another method. `options.path` matches a path other
   * than the URL's (the part below a prefix the table is mounted at).
   */
  async handle(
    request: Request,
    context: C,
    options: RouteOptions = {},
  ): Promise<Response | undefined> {
    const url = options.url ?? new URL(request.url);
    const found = this.find(request.method, options.path ?? url.pathname);
    if (found === undefined) return undefined;
    return await found.handler(request, { url, params: found.params, context });
  }
}

function matchPath<C>(row: Row<C>, parts: readonly string[]): Record<string, string> | undefined {
  if (row.rest ? parts.length < row.segments.length : parts.length !== row.segments.length) {
    return undefined;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < row.segments.length; i++) {
    const segment = row.segments[i]!;
    const part = parts[i]!;
    if (segment.startsWith(":")) {
      if (part === "") return undefined;
      params[segment.slice(1)] = part;
    } else if (segment !== part) return undefined;
  }
  if (row.rest) params["*"] = parts.slice(row.segments.length).join("/");
  return params;
}
