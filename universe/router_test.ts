import assert from "node:assert/strict";
import type { DurableObjectNamespace } from "@cloudflare/workers-types/index.ts";
import type { Env } from "./env.ts";
import { handleRequest } from "./router.ts";

const SECRET = "SQLITE_CORRUPT at /var/lib/directory: token=hunter2";

/** A Directory namespace whose every call fails with `SECRET`, as a broken store would. */
function brokenDirectory(): DurableObjectNamespace {
  return {
    idFromName: (name: string) => ({ name }),
    get: () => ({ fetch: () => Promise.reject(new Error(SECRET)) }),
  } as unknown as DurableObjectNamespace;
}

Deno.test("handleRequest() answers an internal failure 500 internal, its text in the log only", async () => {
  const env: Env = {
    DIRECTORY: brokenDirectory(),
    SNAPSHOTS: { get: () => Promise.resolve(null) } as unknown as Env["SNAPSHOTS"],
    UNIVERSE: "universe.example",
  };
  const lines: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void lines.push(args.join(" "));
  try {
    for (const path of ["/api/universe", "/api/taus/bob.example"]) {
      const res = await handleRequest(new Request(`https://universe.example${path}`), env);
      const text = await res.text();
      assert.deepEqual([res.status, JSON.parse(text)], [500, { error: "internal" }], path);
      assert.ok(!text.includes("hunter2"), text);
    }
  } finally {
    console.error = original;
  }
  assert.deepEqual(lines, [`internal: ${SECRET}`, `internal: ${SECRET}`]);
});
