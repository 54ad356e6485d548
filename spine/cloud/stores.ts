/**
 * What every cloud-only route gets (`CloudCall`), and the stores it may need, each
 * refused with 503 `not_configured` when the deployment lacks it: a route asks for its
 * store when it runs, so a spine without the key-value store still answers the routes
 * that need only the relational one.
 *
 * @module
 */
import type { D1Database, KVNamespace } from "@cloudflare/workers-types/index.ts";
import { HttpError, type Router } from "@agent/net";
import type { Env } from "../env.ts";

/** What a cloud-only route gets besides the request. */
export interface CloudCall {
  env: Env;
}

/** The table the cloud-only routes join (`routes.ts` builds it). */
export type CloudRoutes = Router<CloudCall>;

/** The relational store, or 503 `not_configured`. */
export function db(env: Env): D1Database {
  if (!env.DB) throw new HttpError(503, "not_configured");
  return env.DB;
}

/** The key-value store, or 503 `not_configured`. */
export function kv(env: Env): KVNamespace {
  if (!env.PEER_CARDS) throw new HttpError(503, "not_configured");
  return env.PEER_CARDS;
}
