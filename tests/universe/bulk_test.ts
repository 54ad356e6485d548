/**
 * The bulk seeder's set-wise joins (`_bulk_worker.ts`, used by the map's scale test and
 * benchmark) leave the rows that joins through the directory's own `apply()` and the
 * map index's hook leave, text cleaning included; so a change to `apply()`'s writes
 * shows here, not as a map test that passes on rows no real join would write.
 */
import assert from "node:assert/strict";
import { startBulkUniverse } from "./_bulk.ts";

const T = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "bulk seeding: set-wise joins and the index fill leave the rows apply() leaves",
  ...T,
  async fn() {
    const u = await startBulkUniverse();
    try {
      const ns = await u.mf.getDurableObjectNamespace("DIRECTORY") as unknown as {
        idFromName(name: string): unknown;
        get(id: unknown): { fetch(url: string, init: RequestInit): Promise<Response> };
      };
      const post = async (directory: string, route: string, body?: unknown) => {
        const res = await ns.get(ns.idFromName(directory)).fetch(
          `https://directory.internal/${route}`,
          { method: "POST", ...(body === undefined ? {} : { body: JSON.stringify(body) }) },
        );
        // deno-lint-ignore no-explicit-any
        return { status: res.status, body: await res.json() as any };
      };
      const now = Math.floor(Date.now() / 1000);
      const joins = Array.from({ length: 60 }, (_, i) => ({
        kind: "join",
        address: `agent-${i}.example`,
        ts: now - 60 + (i % 7),
        now,
        sign_key: `key${i}`,
        // Text apply() cleans: controls, invisible marks, runs of spaces, length.
        name: i === 0 ? "" : i % 5 === 0 ? `  Ad\u200ba\u061c ${i}\n` : `Agent ${i}`,
        ...(i % 4 === 0 ? {} : { owner: i % 3 === 0 ? `Ow\u0007ner ${"ş".repeat(70)}` : `O ${i}` }),
        ...(i % 6 === 0 ? {} : { about: `About\t\t${i} ${"x".repeat(i * 4)}` }),
      }));
      assert.equal((await post("through-apply", "bulk", joins)).status, 200);
      assert.deepEqual((await post("set-wise", "bulk-join", joins)).body, { applied: 60 });
      assert.deepEqual((await post("set-wise", "bulk-index")).body, { indexed: 60 });
      const applied = (await post("through-apply", "bulk-dump")).body;
      const set = (await post("set-wise", "bulk-dump")).body;
      assert.equal(applied.agents.length, 60);
      assert.equal(applied.map_agents.length, 60);
      assert.ok(applied.map_cells.length > 0);
      assert.deepEqual(set, applied);
      // An address already joined is refused, not joined twice.
      const again = await post("set-wise", "bulk-join", joins.slice(10, 11));
      assert.equal(again.status, 500);
      assert.match(again.body.error, /^1 already known$/);
    } finally {
      await u.stop();
    }
  },
});
