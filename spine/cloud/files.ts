/**
 * `GET /hub/files` and `GET|PUT|DELETE /hub/files/<name>`: the agent's text files in
 * the key-value store under `file:<name>`, each with its size and `updated_at` kept as
 * the key's metadata. A name is checked after URL decoding; one outside the file set
 * is 404 like a missing one.
 *
 * @module
 */
import type { KVNamespace } from "@cloudflare/workers-types/index.ts";
import {
  compareCloudFiles,
  HttpError,
  isCloudFileName,
  json,
  methodNotAllowed,
  readRequestBody,
} from "@agent/net";
import { decodeSegment } from "./body.ts";

/** A file body at most. */
export const FILE_MAX_BYTES = 512 * 1024;

const PREFIX = "file:";

interface FileMeta {
  size: number;
  updated_at: number;
}

/** `GET /hub/files`: the fixed files in their order, then sub-agent files by name. */
export async function listFiles(request: Request, kv: KVNamespace): Promise<Response> {
  if (request.method !== "GET") methodNotAllowed(["GET"]);
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

/** One file route; `rest` is the path after `/hub/files/`. */
export async function handleFile(
  request: Request,
  rest: string,
  kv: KVNamespace,
): Promise<Response> {
  // `persona/persona.md` may come as two segments or as one with %2F: both decode alike.
  const name = decodeSegment(rest);
  if (name === undefined || !isCloudFileName(name)) {
    await request.body?.cancel();
    throw new HttpError(404, "not_found");
  }
  const key = PREFIX + name;
  switch (request.method) {
    case "GET": {
      const text = await kv.get(key, "text");
      if (text === null) throw new HttpError(404, "not_found");
      return new Response(text, { headers: { "content-type": "text/plain; charset=utf-8" } });
    }
    case "PUT": {
      const bytes = await readRequestBody(request, FILE_MAX_BYTES);
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
      } catch {
        throw new HttpError(400, "bad_request", { detail: "the body is not UTF-8 text" });
      }
      const meta: FileMeta = { size: bytes.byteLength, updated_at: Math.floor(Date.now() / 1000) };
      await kv.put(key, text, { metadata: meta });
      return json({ name, ...meta });
    }
    case "DELETE": {
      const had = (await kv.get(key, "text")) !== null;
      if (had) await kv.delete(key);
      return json({ deleted: had });
    }
    default:
      methodNotAllowed(["GET", "PUT", "DELETE"]);
  }
}
