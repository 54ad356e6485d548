/**
 * The universe Worker for bulk seeding (tests and benchmarks only): the same Worker
 * and directory, whose object also answers three seeding routes, each batch in one
 * event so that storage commits once per batch:
 *
 * - `POST /bulk`: many accepted requests, each run through the directory's own
 *   `apply()` and the map index's hook, as the `/apply` route does.
 * - `POST /bulk-join`: many first joins into a directory that holds none of them,
 *   written in four statements over the whole batch (a JSON array read with
 *   `json_each`): the rows `apply()` writes for a first join (`hits`, `replay`,
 *   `agents`, with its text cleaned the same way), without the map index. One join
 *   through `apply()` and the hook runs ten statements; 100,000 of them took ~80 s.
 * - `POST /bulk-index`: the map index built from the agents listed, by the index's own
 *   first-run fill (`ensureMapIndex`, reached through the hook); once, after the joins.
 *
 * `bulk_test.ts` checks that `/bulk-join` then `/bulk-index` leave the same rows as
 * `/bulk`.
 *
 * @module
 */
import type { DurableObjectState, SqlStorage } from "@cloudflare/workers-types/index.ts";
import { cleanText } from "@agent/net";
import {
  type AcceptedRequest,
  Directory as Base,
  type Env,
  handleRequest,
  indexMapAgent,
} from "@agent/universe";

/** The directory with the seeding routes. */
export class Directory extends Base {
  #state: DurableObjectState;
  #sql: SqlStorage;

  constructor(state: DurableObjectState, env: Env) {
    super(state, env);
    this.#state = state;
    this.#sql = state.storage.sql;
  }

  override async fetch(request: Request): Promise<Response> {
    switch (new URL(request.url).pathname) {
      case "/bulk":
        return this.#bulk(await request.json() as AcceptedRequest[]);
      case "/bulk-join":
        return this.#join(await request.json() as AcceptedRequest[]);
      case "/bulk-index": {
        const first = this.#sql.exec("SELECT address FROM agents LIMIT 1").toArray()[0];
        if (first !== undefined) indexMapAgent(this.#sql, String(first.address));
        const count = (table: string) =>
          Number(this.#sql.exec(`SELECT COUNT(*) AS n FROM ${table}`).toArray()[0]?.n);
        // An index made before the joins (a map read) is not filled again: refused.
        if (count("map_agents") !== count("agents")) {
          return Response.json({ error: "the map index was made before the joins" }, {
            status: 500,
          });
        }
        return Response.json({ indexed: count("map_agents") });
      }
      case "/bulk-dump":
        return Response.json(this.#dump());
      default:
        return await super.fetch(request);
    }
  }

  #bulk(requests: AcceptedRequest[]): Response {
    for (const r of requests) {
      const result = this.apply(r);
      if (result.status !== 200) {
        return Response.json({ address: r.address, ...result.body }, { status: 500 });
      }
      indexMapAgent(this.#sql, r.address);
    }
    return Response.json({ applied: requests.length });
  }

  #join(requests: AcceptedRequest[]): Response {
    // As apply() cleans them: name, owner and about.
    const rows = JSON.stringify(requests.map((r) => {
      if (r.kind !== "join") throw new Error(`${r.address}: not a join`);
      return {
        address: r.address,
        name: cleanText(r.name, 80) || r.address,
        owner: cleanText(r.owner ?? "", 60),
        about: cleanText(r.about ?? "", 200),
        sign_key: r.sign_key,
        ts: r.ts,
        now: r.now,
      };
    }));
    const batch = "FROM json_each(?) j";
    return this.#state.storage.transactionSync(() => {
      const known = this.#sql.exec(
        `SELECT COUNT(*) AS n ${batch} WHERE j.value ->> 'address' IN (SELECT address FROM agents)
           OR j.value ->> 'address' IN (SELECT address FROM replay)`,
        rows,
      ).toArray()[0]?.n;
      if (Number(known) > 0) {
        return Response.json({ error: `${known} already known` }, { status: 500 });
      }
      this.#sql.exec(
        `INSERT INTO hits (address, at) SELECT j.value ->> 'address', j.value ->> 'now' ${batch}`,
        rows,
      );
      this.#sql.exec(
        `INSERT INTO replay (address, last_ts) SELECT j.value ->> 'address', j.value ->> 'ts' ${batch}`,
        rows,
      );
      this.#sql.exec(
        `INSERT INTO agents (address, name, sign_key, owner, about, joined_at, last_seen, subs)
         SELECT j.value ->> 'address', j.value ->> 'name', j.value ->> 'sign_key',
           j.value ->> 'owner', j.value ->> 'about', j.value ->> 'ts', j.value ->> 'ts', '[]'
         ${batch}`,
        rows,
      );
      return Response.json({ applied: requests.length });
    });
  }

  /** Every row a join writes, in a fixed order (for `bulk_test.ts`). */
  #dump(): Record<string, unknown[]> {
    const all = (query: string) => this.#sql.exec(query).toArray();
    return {
      agents: all("SELECT * FROM agents ORDER BY address"),
      replay: all("SELECT * FROM replay ORDER BY address"),
      hits: all("SELECT * FROM hits ORDER BY address, at"),
      map_agents: all("SELECT * FROM map_agents ORDER BY address"),
      map_cells: all("SELECT * FROM map_cells ORDER BY cell"),
    };
  }
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    return handleRequest(request, env);
  },
};
