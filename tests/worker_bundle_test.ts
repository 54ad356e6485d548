import assert from "node:assert/strict";
import { sourceKey, spineBundle } from "./_worker_bundle.ts";
import { tempDir } from "./_temp_dir.ts";

Deno.test("sourceKey() changes with any file's bytes, a new file or a renamed one", async () => {
  using root = tempDir("worker-bundle-test-");
  const write = (path: string, text: string) => {
    Deno.mkdirSync(`${root.path}/${path}`.replace(/\/[^/]+$/, ""), { recursive: true });
    Deno.writeTextFileSync(`${root.path}/${path}`, text);
  };
  write("spine/worker.ts", "export default {};\n");
  write("spine/cloud/routes.ts", "export const a = 1;\n");
  write("net/mod.ts", "export const b = 2;\n");
  write("deno.lock", "{}\n");
  const paths = ["spine", "net", "deno.lock"];
  const keys = [await sourceKey(root.path, paths)];
  assert.equal(await sourceKey(root.path, paths), keys[0], "the same files, the same key");
  write("spine/cloud/routes.ts", "export const a = 2;\n");
  keys.push(await sourceKey(root.path, paths));
  write("net/extra.ts", "export const c = 3;\n");
  keys.push(await sourceKey(root.path, paths));
  Deno.renameSync(`${root.path}/net/extra.ts`, `${root.path}/net/other.ts`);
  keys.push(await sourceKey(root.path, paths));
  write("deno.lock", '{"version":"5"}\n');
  keys.push(await sourceKey(root.path, paths));
  assert.equal(new Set(keys).size, keys.length, keys.join(" "));
});

Deno.test("spineBundle() is the spine's source as it is now, kept for the run's next files", async () => {
  const bundle = await spineBundle();
  // The Worker's entry and a module deep in the source are both in it.
  assert.match(bundle, /export\s*\{[^}]*\bMailbox\b/);
  assert.ok(bundle.includes("wrong_recipient"));
  const kept = [
    ...Deno.readDirSync(new URL(".tmp/worker-bundles/", new URL("../", import.meta.url))),
  ]
    .filter((e) => e.name.startsWith("spine-") && e.name.endsWith(".js"));
  assert.equal(kept.length, 1, kept.map((e) => e.name).join(" "));
});
