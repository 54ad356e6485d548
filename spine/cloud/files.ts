/**
 * `GET /hub/files` and `GET|PUT|DELETE /hub/files/<name>`: the agent's text files in
 * the key-value store under `file:<name>`, each with its size and `updated_at` kept as
 * the key's metadata. A name is checked after URL decoding; one outside the file set
 * is 404 like a missing one.
 *
 * @module
 */
import type { KVNamespace } from "@cloudflare/workers-types/index.ts";
import { compareCloudFiles, HttpError, isCloudFileName, json, readRequestBody } from "@agent/net";
import { decodeSegment } from "./body.ts";
import { type CloudRoutes, kv } from "./stores.ts";

/** A file body at most. */
export const FILE_MAX_BYTES = 512 * 1024;

const PREFIX = "file:";

interface FileMeta {
  size: number;
  updated_at: number;
}

/** Adds `GET /hub/files` and `GET|PUT|DELETE /hub/files/<name>`. */
export function addFileRoutes(routes: CloudRoutes): CloudRoutes {
  return routes
    .on("GET", "/hub/files", (_request, { context }) => listFiles(kv(context.env)))
    .on("GET", "/hub/files/*", async (request, { params, context }) => {
      const key = await fileKey(request, params["*"]!);
      const text = await kv(context.env).get(key, "text");
      if (text === null) throw new HttpError(404, "not_found");
      return new Response(text, { headers: { "content-type": "text/plain; charset=utf-8" } });
    })
    .put("/hub/files/*", async (request, { params, context }) => {
      const key = await fileKey(request, params["*"]!);
      const store = kv(context.env);
      const bytes = await readRequestBody(request, FILE_MAX_BYTES);
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
      } catch {
        throw new HttpError(400, "bad_request", { detail: "the body is not UTF-8 text" });
      }
      const meta: FileMeta = { size: bytes.byteLength, updated_at: Math.floor(Date.now() / 1000) };
      await store.put(key, text, { metadata: meta });
      return json({ name: key.slice(PREFIX.length), ...meta });
    })
    .delete("/hub/files/*", async (request, { params, context }) => {
      const key = await fileKey(request, params["*"]!);
      const store = kv(context.env);
      const had = (await store.get(key, "text")) !== null;
      if (had) await store.delete(key);
      return json({ deleted: had });
    });
}

/** `GET /hub/files`: the fixed files in their order, then sub-agent files by name. */
async function listFiles(kv: KVNamespace): Promise<Response> {
  const files: { name: string; size: number; updated_at: number }[] = [];
  let cursor: string | undefined;
  do {
    const page = await kv.list<FileMeta>({ prefix: PREFIX, ...(cursor ? { cursor } : {}) });
    for (const key of page.keys) {
      const name = key.name.slice(PREFIX.length);
      if (!isCloudFileName(name)) continue;
      files.push({
        name,
        size: key.metadata?.size ?? 0,
        updated_at: key.metadata?.updated_at ?? 0,
      });
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  files.sort((a, b) => compareCloudFiles(a.name, b.name));
  return json({ files });
}

/**
 * The store's key of the file `rest` names (the path after `/hub/files/`); a name
 * outside the file set is 404 like a missing file.
 */
async function fileKey(request: Request, rest: string): Promise<string> {
  // `persona/persona.md` may come as two segments or as one with %2F: both decode alike.
  const name = decodeSegment(rest);
  if (name === undefined || !isCloudFileName(name)) {
    await request.body?.cancel();
    throw new HttpError(404, "not_found");
  }
  return PREFIX + name;
}
