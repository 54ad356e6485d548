/**
 * `GET|PUT|DELETE /hub/state/<key>`: small JSON documents in the relational store
 * (`DB`), `updated_at` in integer Unix seconds.
 *
 * @module
 */
import type { D1Database } from "@cloudflare/workers-types/index.ts";
import { HttpError, isStateKey, json, methodNotAllowed } from "@agent/net";
import { checkId, decodeSegment, field, readObject } from "./body.ts";

/** One state route; `rest` is the path after `/hub/state/`. */
export async function handleState(request: Request, rest: string, db: D1Database) {
  const key = checkId(decodeSegment(rest), isStateKey, "state key");
  switch (request.method) {
    case "GET": {
      const row = await db.prepare("SELECT value, updated_at FROM state WHERE key = ?1")
        .bind(key).first<{ value: string; updated_at: number }>();
      if (row === null) throw new HttpError(404, "not_found");
      return json({ key, value: JSON.parse(row.value), updated_at: row.updated_at });
    }
    case "PUT": {
      const value = field(await readObject(request), "value");
      const now = Math.floor(Date.now() / 1000);
      await db.prepare(
        "INSERT INTO state (key, value, updated_at) VALUES (?1, ?2, ?3) " +
          "ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
      ).bind(key, JSON.stringify(value), now).run();
      return json({ key, updated_at: now });
    }
    case "DELETE": {
      const result = await db.prepare("DELETE FROM state WHERE key = ?1").bind(key).run();
      return json({ deleted: (result.meta.changes ?? 0) > 0 });
    }
    default:
      methodNotAllowed(["GET", "PUT", "DELETE"]);
  }
}
