/**
 * The loopback JSR registry answers `deno publish`'s requests as JSR does: a token it
 * does not know is refused, a second upload of a version is `duplicateVersionPublish`
 * with the finished task, and the version metadata lists every file with its checksum.
 */
import assert from "node:assert/strict";
import { jsrRegistryHandler, type PublishedVersion, readTar } from "./jsr_registry.ts";

// deno-lint-ignore no-explicit-any
function json(response: Response): Promise<any> {
  return response.json();
}

/** A one-file-per-entry ustar archive, gzipped. */
async function tarball(files: Record<string, string>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (const [name, text] of Object.entries(files)) {
    const body = new TextEncoder().encode(text);
    const header = new Uint8Array(512);
    header.set(new TextEncoder().encode(name));
    header.set(new TextEncoder().encode(body.length.toString(8).padStart(11, "0")), 124);
    header[156] = "0".charCodeAt(0);
    parts.push(header, body, new Uint8Array((512 - body.length % 512) % 512));
  }
  parts.push(new Uint8Array(1024));
  const stream = new Blob(parts as BlobPart[]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

Deno.test("readTar() reads ustar entries as /paths", () => {
  const header = new Uint8Array(512);
  header.set(new TextEncoder().encode("./mod.ts"));
  header.set(new TextEncoder().encode("00000000002"), 124);
  header[156] = 48;
  const body = new Uint8Array(512);
  body.set(new TextEncoder().encode("x\n"));
  const files = readTar(new Uint8Array([...header, ...body, ...new Uint8Array(1024)]));
  assert.deepEqual([...files.keys()], ["/mod.ts"]);
  assert.equal(new TextDecoder().decode(files.get("/mod.ts")), "x\n");
});

Deno.test("the registry publishes with its token only, once, and serves the version", async () => {
  const published: PublishedVersion[] = [];
  const handle = jsrRegistryHandler(published, { token: "t" });
  const base = "http://127.0.0.1:1";
  const body = await tarball({
    "./deno.json": '{"name":"@a/b","version":"1.0.0","exports":"./mod.ts"}',
    "./mod.ts": "export const x = 1;\n",
  });
  const upload = (token: string) =>
    handle(
      new Request(`${base}/api/scopes/a/packages/b/versions/1.0.0?config=/deno.json`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-encoding": "gzip" },
        body: body as BodyInit,
      }),
    );
  assert.equal((await upload("wrong")).status, 401);
  const before = await handle(new Request(`${base}/api/scopes/a/packages/b/versions/1.0.0`));
  assert.equal(before.status, 404);
  const first = await upload("t");
  assert.equal((await json(first)).status, "success");
  const again = await upload("t");
  assert.equal(again.status, 409);
  const error = await json(again);
  assert.equal(error.code, "duplicateVersionPublish");
  assert.equal(error.task.status, "success");

  const meta = await json(await handle(new Request(`${base}/@a/b/meta.json`)));
  assert.equal(meta.latest, "1.0.0");
  assert.ok(Date.parse(meta.versions["1.0.0"].createdAt) <= Date.now());
  const version = await json(await handle(new Request(`${base}/@a/b/1.0.0_meta.json`)));
  assert.deepEqual(version.exports, { ".": "./mod.ts" });
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode("export const x = 1;\n"),
  );
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  assert.deepEqual(version.manifest["/mod.ts"], { size: 20, checksum: `sha256-${hex}` });
  const file = await handle(new Request(`${base}/@a/b/1.0.0/mod.ts`));
  assert.equal(await file.text(), "export const x = 1;\n");
  assert.equal(file.headers.get("content-type"), "application/typescript");
});
