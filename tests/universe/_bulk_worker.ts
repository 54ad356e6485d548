/**
 * The universe Worker for bulk seeding (tests and benchmarks only): the same Worker
 * and directory, whose object also answers `POST /bulk` with many accepted requests,
 * each run through the directory's own `apply()` and the map index's hook, as the
 * `/apply` route does, all in one event so that storage commits once per batch.
 *
 * @module
 */
import type { DurableObjectState, SqlStorage } from "@cloudflare/workers-types/index.ts";
import {
  type AcceptedRequest,
  Directory as Base,
  type Env,
  handleRequest,
  indexMapAgent,
} from "@agent/universe";

/** The directory with a `/bulk` route. */
export class Directory extends Base {
  #sql: SqlStorage;

  constructor(state: DurableObjectState, env: Env) {
    super(state, env);
    this.#sql = state.storage.sql;
  }

  override async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname !== "/bulk") return await super.fetch(request);
    const requests = await request.json() as AcceptedRequest[];
    for (const r of requests) {
      const result = this.apply(r);
      if (result.status !== 200) {
        return Response.json({ address: r.address, ...result.body }, { status: 500 });
      }
      indexMapAgent(this.#sql, r.address);
    }
    return Response.json({ applied: requests.length });
  }
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    return handleRequest(request, env);
  },
};
