/**
 * `GET /api/universe` from the stored snapshot: the gzip object the directory's alarm
 * wrote to R2, streamed as it is to clients that accept gzip and decompressed on the
 * way for those that do not, with a weak `ETag` answered 304 on `If-None-Match`. The
 * directory is asked for a build only when nothing is stored yet, and poked (to build
 * at its next slot) when the stored one is older than the max-age.
 *
 * The stored head names the configured `UNIVERSE` (or nothing, when it is empty); a
 * request under another host gets its own head spliced in front of the same
 * compressed rest (`_gzip_splice.ts`), so one request's `Host` never changes what
 * anyone else reads.
 *
 * @module
 */
import type { R2Bucket, R2ObjectBody } from "@cloudflare/workers-types/index.ts";
import { DirectoryClient } from "./directory_client.ts";
import { SNAPSHOT_MAX_AGE_SECONDS } from "./directory.ts";
import type { Env } from "./env.ts";
import { SNAPSHOT_KEY, snapshotHead } from "./snapshot_build.ts";
import {
  crc32,
  crc32SwapHead,
  HEAD_OFFSET,
  headBlock,
  readTrailer,
  trailer,
} from "./_gzip_splice.ts";

/** What {@linkcode storedSnapshotResponse} needs besides the request. */
export interface SnapshotContext {
  env: Env;
  /** The universe's host for this request: `UNIVERSE`, else the request's own host. */
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

const encoder = new TextEncoder();

/** The stored snapshot as the spec's `GET /api/universe` answer. */
export async function storedSnapshotResponse(
  request: Request,
  ctx: SnapshotContext,
): Promise<Response> {
  const directory = new DirectoryClient(ctx.env.DIRECTORY);
  // A build may replace the object between the reads of a splice: then read again.
  for (let attempt = 0;; attempt++) {
    let object = await ctx.env.SNAPSHOTS.get(SNAPSHOT_KEY) as R2ObjectBody | null;
    if (object === null) {
      // A new universe: the first read builds it (later ones never wait for a build).
      await directory.build(ctx.now);
      object = await ctx.env.SNAPSHOTS.get(SNAPSHOT_KEY) as R2ObjectBody | null;
      if (object === null) throw new Error("the snapshot was built but is not stored");
    }
    const meta = object.customMetadata ?? {};
    const generatedAt = Number(meta.generated_at ?? 0);
    const maxAge = Number(ctx.env.SNAPSHOT_REBUILD_SECONDS) || SNAPSHOT_MAX_AGE_SECONDS;
    // A snapshot stored before heads had a block of their own cannot be spliced: it is
    // served as it is until the next build.
    const splice = meta.host !== ctx.host && meta.head_bytes !== undefined;
    if (ctx.now - generatedAt >= maxAge || meta.head_bytes === undefined) {
      await directory.poke();
    }
    const tag = splice
      ? `${object.etag}-${crc32(encoder.encode(ctx.host)).toString(16)}`
      : object.etag;
    const headers: Record<string, string> = { ...HEADERS, ETag: `W/"${tag}"` };
    const gzip = acceptsGzip(request.headers.get("accept-encoding"));
    if (matches(request.headers.get("if-none-match"), tag) || request.method === "HEAD") {
      await object.body.cancel();
      const status =
        request.method === "HEAD" && !matches(request.headers.get("if-none-match"), tag)
          ? 200
          : 304;
      const encoding = status === 200 && gzip ? { "Content-Encoding": "gzip" } : {};
      return new Response(null, { status, headers: { ...headers, ...encoding } });
    }
    if (splice) {
      await object.body.cancel();
      const spliced = await splicedBody(ctx.env.SNAPSHOTS, object, {
        stored: String(meta.host ?? ""),
        host: ctx.host,
        headBytes: Number(meta.head_bytes),
        gzip,
      });
      if (spliced === undefined && attempt < 2) continue;
      if (spliced === undefined) throw new Error("the snapshot kept changing while it was read");
      return new Response(spliced.body, {
        headers: gzip
          ? {
            ...headers,
            "Content-Encoding": "gzip",
            "Content-Length": String(spliced.length),
          }
          : headers,
        ...(gzip ? { encodeBody: "manual" } : {}),
      } as ResponseInit);
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
}

/** What {@linkcode splicedBody} swaps. */
interface SpliceOptions {
  /** The host the stored head names. */
  stored: string;
  /** The host this reader's head names. */
  host: string;
  /** The stored head's length in bytes (from the object's metadata). */
  headBytes: number;
  /** Gzip as stored (with a new header, head block and trailer), else plain JSON. */
  gzip: boolean;
}

/**
 * The snapshot with `host` in its head: the stored object's compressed rest read by
 * range, with a new head in front (and, for gzip, a trailer with the CRC worked out
 * from the stored one). `undefined` when the object changed since `object` was read.
 */
async function splicedBody(
  bucket: R2Bucket,
  object: R2ObjectBody,
  options: SpliceOptions,
): Promise<{ body: ReadableStream<Uint8Array>; length: number } | undefined> {
  const oldHead = encoder.encode(snapshotHead(options.stored));
  if (oldHead.byteLength !== options.headBytes) {
    throw new Error("the stored snapshot's head is not the one its metadata names");
  }
  const newHead = encoder.encode(snapshotHead(options.host));
  const offset = HEAD_OFFSET + oldHead.byteLength;
  const length = object.size - offset - 8;
  const onlyIf = { etagMatches: object.etag };
  const [tail, middle] = await Promise.all([
    options.gzip ? bucket.get(SNAPSHOT_KEY, { range: { suffix: 8 }, onlyIf }) : null,
    bucket.get(SNAPSHOT_KEY, { range: { offset, length }, onlyIf }),
  ]) as [R2ObjectBody | null, R2ObjectBody | null];
  if (
    middle === null || !("body" in middle) || (options.gzip && (tail === null || !("body" in tail)))
  ) {
    await tail?.body?.cancel();
    await middle?.body?.cancel();
    return undefined;
  }
  const rest = middle.body as unknown as ReadableStream<Uint8Array>;
  if (!options.gzip) {
    const inflate = new DecompressionStream("deflate-raw") as unknown as TransformStream<
      Uint8Array,
      Uint8Array
    >;
    return { body: joined([newHead, rest.pipeThrough(inflate)]), length: -1 };
  }
  const stored = readTrailer(new Uint8Array(await tail!.arrayBuffer()));
  // The lengths are kept modulo 2^32 in the trailer; a snapshot is far below 4 GiB.
  const restLength = (stored.length - oldHead.byteLength + 2 ** 32) % 2 ** 32;
  const crc = crc32SwapHead(stored.crc, oldHead, newHead, restLength);
  const head = headBlock(newHead);
  const end = trailer(crc, newHead.byteLength + restLength);
  const total = head.byteLength + length + end.byteLength;
  return { body: joined([head, rest, end], total), length: total };
}

/**
 * Bytes and streams one after another as one stream; with `length`, a fixed-length one
 * (workerd sends a `Content-Length` only for such a stream).
 */
function joined(
  parts: (Uint8Array | ReadableStream<Uint8Array>)[],
  length?: number,
): ReadableStream<Uint8Array> {
  const Fixed = (globalThis as { FixedLengthStream?: new (n: number) => TransformStream })
    .FixedLengthStream;
  const { readable, writable } = length !== undefined && Fixed !== undefined
    ? new Fixed(length) as TransformStream<Uint8Array, Uint8Array>
    : new TransformStream<Uint8Array, Uint8Array>();
  (async () => {
    const writer = writable.getWriter();
    try {
      for (const part of parts) {
        if (part instanceof Uint8Array) {
          await writer.write(part);
          continue;
        }
        const reader = part.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          await writer.write(value);
        }
      }
      await writer.close();
    } catch (error) {
      await writer.abort(error).catch(() => {});
    }
  })();
  return readable;
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
