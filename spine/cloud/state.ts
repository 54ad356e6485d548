/**
 * `GET|PUT|DELETE /hub/state/<key>`: small JSON documents in the relational store
 * (`DB`), `updated_at` in integer Unix seconds.
 *
 * @module
 */
import { HttpError, isStateKey, json } from "@agent/net";
import { type CloudRoutes, db } from "./stores.ts";
import { checkId, decodeSegment, field, readObject } from "./body.ts";

/** Adds `GET|PUT|DELETE /hub/state/<key>`. */
export function addStateRoutes(routes: CloudRoutes): CloudRoutes {
  return routes
    .on("GET", "/hub/state/*", async (_request, { params, context }) => {
      const key = stateKey(params["*"]!);
      const row = await db(context.env).prepare(
        "SELECT value, updated_at FROM state WHERE key = ?1",
      ).bind(key).first<{ value: string; updated_at: number }>();
      if (row === null) throw new HttpError(404, "not_found");
      return json({ key, value: JSON.parse(row.value), updated_at: row.updated_at });
    })
    .put("/hub/state/*", async (request, { params, context }) => {
      const key = stateKey(params["*"]!);
      const store = db(context.env);
      const value = field(await readObject(request), "value");
      const now = Math.floor(Date.now() / 1000);
      await store.prepare(
        "INSERT INTO state (key, value, updated_at) VALUES (?1, ?2, ?3) " +
          "ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
      ).bind(key, JSON.stringify(value), now).run();
      return json({ key, updated_at: now });
    })
    .delete("/hub/state/*", async (_request, { params, context }) => {
      const key = stateKey(params["*"]!);
      const result = await db(context.env).prepare("DELETE FROM state WHERE key = ?1").bind(key)
        .run();
      return json({ deleted: (result.meta.changes ?? 0) > 0 });
    });
}

function stateKey(rest: string): string {
  return checkId(decodeSegment(rest), isStateKey, "state key");
}
