/**
 * `GET /api/universe` from the stored snapshot: the gzip object the directory's alarm
 * wrote to R2, streamed as it is to clients that accept gzip and decompressed on the
 * way for those that do not, with a weak `ETag` answered 304 on `If-None-Match`. The
 * directory is asked for a build only when nothing is stored yet, and poked (to build
 * at its next slot) when the stored one is older than the max-age.
 *
 * @module
 */
import type { R2ObjectBody } from "@cloudflare/workers-types/index.ts";
import { DirectoryClient } from "./directory_client.ts";
import { SNAPSHOT_MAX_AGE_SECONDS } from "./directory.ts";
import type { Env } from "./env.ts";
import { SNAPSHOT_KEY } from "./snapshot_build.ts";

/** What {@linkcode storedSnapshotResponse} needs besides the request. */
export interface SnapshotContext {
  env: Env;
  host: string;
  /** Unix seconds. */
  now: number;
}

const HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "Cache-Control": `public, max-age=${SNAPSHOT_MAX_AGE_SECONDS}`,
  "Access-Control-Allow-Origin": "*",
  Vary: "Accept-Encoding",
};

/** The stored snapshot as the spec's `GET /api/universe` answer. */
export async function storedSnapshotResponse(
  request: Request,
  ctx: SnapshotContext,
): Promise<Response> {
  const directory = new DirectoryClient(ctx.env.DIRECTORY);
  let object = await ctx.env.SNAPSHOTS.get(SNAPSHOT_KEY) as R2ObjectBody | null;
  if (object === null) {
    // A new universe: the first read builds it (later ones never wait for a build).
    await directory.build(ctx.host, ctx.now);
    object = await ctx.env.SNAPSHOTS.get(SNAPSHOT_KEY) as R2ObjectBody | null;
    if (object === null) throw new Error("the snapshot was built but is not stored");
  }
  const generatedAt = Number(object.customMetadata?.generated_at ?? 0);
  const maxAge = Number(ctx.env.SNAPSHOT_REBUILD_SECONDS) || SNAPSHOT_MAX_AGE_SECONDS;
  if (object.customMetadata?.host !== ctx.host || ctx.now - generatedAt >= maxAge) {
    await directory.poke(ctx.host);
  }
  const etag = `W/"${object.etag}"`;
  const headers: Record<string, string> = { ...HEADERS, ETag: etag };
  if (matches(request.headers.get("if-none-match"), object.etag)) {
    await object.body.cancel();
    return new Response(null, { status: 304, headers });
  }
  const gzip = acceptsGzip(request.headers.get("accept-encoding"));
  if (request.method === "HEAD") {
    await object.body.cancel();
    return new Response(null, {
      headers: gzip ? { ...headers, "Content-Encoding": "gzip" } : headers,
    });
  }
  const stored = object.body as unknown as ReadableStream<Uint8Array>;
  if (!gzip) {
    const gunzip = new DecompressionStream("gzip") as unknown as TransformStream<
      Uint8Array,
      Uint8Array
    >;
    return new Response(stored.pipeThrough(gunzip), { headers });
  }
  // workerd would compress a body again under Content-Encoding unless told it is done.
  return new Response(stored, {
    headers: { ...headers, "Content-Encoding": "gzip", "Content-Length": String(object.size) },
    encodeBody: "manual",
  } as ResponseInit);
}

/** Whether `If-None-Match` names `etag` (weakly compared) or is `*`. */
export function matches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === `"${etag}"`;
  });
}

/**
 * Whether `Accept-Encoding` allows gzip: `gzip` (or `x-gzip`, or `*`) with a q above 0
 * and no `gzip;q=0`.
 *
 * @example
 * ```ts
 * import { acceptsGzip } from "./snapshot_serve.ts";
 * if (!acceptsGzip("br, gzip;q=0.5") || acceptsGzip("identity") || acceptsGzip("*, gzip;q=0")) {
 *   throw new Error("acceptsGzip is wrong");
 * }
 * ```
 */
export function acceptsGzip(header: string | null): boolean {
  if (header === null) return false;
  let star = false;
  for (const part of header.split(",")) {
    const [coding = "", ...params] = part.trim().toLowerCase().split(";");
    const q = Number(params.find((p) => p.trim().startsWith("q="))?.trim().slice(2) ?? "1");
    const ok = Number.isFinite(q) && q > 0;
    if (coding.trim() === "gzip" || coding.trim() === "x-gzip") return ok;
    if (coding.trim() === "*") star = ok;
  }
  return star;
}
