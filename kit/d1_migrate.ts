/**
 * The spine's D1 migrations applied to a local Miniflare, as `wrangler d1 migrations
 * apply` does, through a small Worker of its own reached by `dispatchFetch`.
 *
 * Why a Worker: Miniflare's binding proxies (`getD1Database`) make their first call on
 * each object synchronously, through a helper thread and `Atomics.wait`. Under Deno that
 * path lost its answer once in a CI run (`assert(message?.id === id)` inside Miniflare),
 * failing a spine's start. `dispatchFetch` is a plain asynchronous request. Each
 * migration runs as one D1 batch, which is one transaction: a migration is applied
 * whole, with its row in `d1_migrations`, or not at all.
 *
 * The Worker answers only requests carrying the secret made for its instance, compared in
 * constant time, so nothing else on the machine can run SQL through it.
 *
 * @module
 */
import type { Miniflare } from "miniflare";

/** The spine's D1 migrations, shipped in the kit's cloud configuration. */
export const SPINE_MIGRATIONS_DIR: string =
  new URL("../spine/migrations/", import.meta.url).pathname;

/** The migrator Worker's name among the instance's Workers. */
export const MIGRATOR_NAME = "agent-d1-migrator";

const SCRIPT = `
const enc = new TextEncoder();
export default {
  async fetch(request, env) {
    const given = enc.encode(request.headers.get("x-migrate-secret") ?? "");
    const want = enc.encode(env.MIGRATE_SECRET);
    if (given.byteLength !== want.byteLength || !crypto.subtle.timingSafeEqual(given, want)) {
      return new Response("not found", { status: 404 });
    }
    const migrations = await request.json();
    await env.DB.prepare("CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY " +
      "AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)").run();
    const applied = [];
    for (const { name, statements } of migrations) {
      const done = await env.DB.prepare("SELECT 1 FROM d1_migrations WHERE name = ?1").bind(name).first();
      if (done) continue;
      await env.DB.batch([
        ...statements.map((s) => env.DB.prepare(s)),
        env.DB.prepare("INSERT INTO d1_migrations (name) VALUES (?1)").bind(name),
      ]);
      applied.push(name);
    }
    return Response.json(applied);
  },
};
`;

/**
 * The migrator's Worker options: bound to the same D1 database id as the spine's `DB`
 * (Miniflare shares storage by id), answering only `secret`.
 */
export function migratorWorker(secret: string, compatibilityDate: string): Record<string, unknown> {
  return {
    name: MIGRATOR_NAME,
    modules: true,
    script: SCRIPT,
    compatibilityDate,
    d1Databases: ["DB"],
    bindings: { MIGRATE_SECRET: secret },
    // Like the spine beside it, no Cache API: one Worker that keeps it would bring
    // Miniflare's cache Worker back into the instance.
    cache: false,
  };
}

/** A fresh secret for one instance's migrator. */
export function migratorSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The statements of a migration file: comments dropped, split at `;` line ends. */
export function migrationStatements(sql: string): string[] {
  return sql.split("\n").filter((line) => !line.trim().startsWith("--")).join("\n")
    .split(/;\s*(?:\n|$)/).map((s) => s.trim()).filter((s) => s.length > 0);
}

/**
 * Applies the migrations of `dir` not applied yet, in name order, through the instance's
 * migrator (see {@linkcode migratorWorker}); returns the names it applied.
 */
export async function applyMigrations(
  mf: Miniflare,
  secret: string,
  dir: string = SPINE_MIGRATIONS_DIR,
): Promise<string[]> {
  const names = [...Deno.readDirSync(dir)].filter((e) => e.isFile && e.name.endsWith(".sql"))
    .map((e) => e.name).sort();
  const migrations = await Promise.all(names.map(async (name) => ({
    name,
    statements: migrationStatements(await Deno.readTextFile(`${dir}/${name}`)),
  })));
  const response = await mf.dispatchFetch("http://migrator.invalid/", {
    method: "POST",
    headers: { "MF-Route-Override": MIGRATOR_NAME, "x-migrate-secret": secret },
    body: JSON.stringify(migrations),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Cannot apply the D1 migrations: ${response.status} ${text}`);
  return JSON.parse(text) as string[];
}
