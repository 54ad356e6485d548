/**
 * Builds the public snapshot (`GET /api/universe`) into one gzip object in R2 without
 * holding it in memory: rows are read a page at a time (keyset pagination, each page
 * one short synchronous query, so writes run between pages), turned into JSON text,
 * gzip-compressed as they go, and uploaded in fixed-size parts. The bytes are those
 * `JSON.stringify` gives for the spec's snapshot: same fields, same order.
 *
 * The head, `{"universe":"<host>",`, has a stored deflate block of its own (see
 * `_gzip_splice.ts`), so a reader under another host is served its own head with the
 * same compressed rest: the host named here is the configured `UNIVERSE` (or empty),
 * never one a request brought.
 *
 * @module
 */
import type { R2Bucket, SqlStorage } from "@cloudflare/workers-types/index.ts";
import type { UniverseSub } from "@agent/net";
import type { SnapshotTau } from "./directory_types.ts";
import { crc32, crc32Combine, deflateBody, headBlock, trailer } from "./_gzip_splice.ts";

/** The stored snapshot's key in the bucket. */
export const SNAPSHOT_KEY = "snapshot/universe.json.gz";

/** Rows read per query while building. */
export const PAGE_ROWS = 2_000;

/** R2's multipart part size (every part but the last has exactly this many bytes). */
export const PART_BYTES = 5 * 1024 * 1024;

/** "Online" means seen within this window (seconds). */
export const ONLINE_SECONDS = 2 * 3_600;

/** What a build wrote. */
export interface BuildResult {
  generated_at: number;
  taus: number;
  links: number;
  /** Uncompressed JSON bytes. */
  bytes: number;
  /** Stored (gzip) bytes. */
  stored: number;
  etag: string;
}

/** What the build reads besides the tables: the counter kept by the write path. */
export interface BuildInput {
  sql: SqlStorage;
  bucket: R2Bucket;
  /** The configured universe host (`UNIVERSE`), or `""`: the stored head's. */
  host: string;
  /** Unix seconds: `generated_at` and the online window's end. */
  now: number;
  /** `stats.messages`, kept up to date by every write (the sum over visible links). */
  messages: number;
}

type Row = Record<string, unknown>;

/** Streams the snapshot into {@linkcode SNAPSHOT_KEY}. */
export async function buildSnapshot(input: BuildInput): Promise<BuildResult> {
  const { sql, now } = input;
  const count = (query: string, ...params: unknown[]) =>
    Number((sql.exec(query, ...params).toArray()[0] as Row | undefined)?.n ?? 0);
  const stats = {
    taus: count("SELECT COUNT(*) AS n FROM agents"),
    online: count("SELECT COUNT(*) AS n FROM agents WHERE last_seen >= ?", now - ONLINE_SECONDS),
    messages: input.messages,
  };
  const encoder = new TextEncoder();
  const head = encoder.encode(snapshotHead(input.host));
  // `host` and `head_bytes` tell a reader under another host where the rest begins.
  const upload = new PartUpload(input.bucket, SNAPSHOT_KEY, {
    generated_at: String(now),
    host: input.host,
    head_bytes: String(head.byteLength),
  });
  await upload.add(headBlock(head));
  let rest: { crc: number; length: number } | undefined;
  const gzip = new CompressionStream("gzip") as unknown as TransformStream<
    Uint8Array,
    Uint8Array
  >;
  const writer = gzip.writable.getWriter();
  let bytes = head.byteLength;
  const write = async (text: string) => {
    const chunk = encoder.encode(text);
    bytes += chunk.byteLength;
    await writer.write(chunk);
    // Compression settles in microtasks: without a turn of the event loop here, requests
    // would wait for the next 5 MiB part's upload (seconds at a million agents).
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  const pump = (async () => {
    const reader = gzip.readable.pipeThrough(deflateBody((t) => rest = t)).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      await upload.add(value);
    }
  })();
  let taus = 0;
  let links = 0;
  try {
    // The rest of `JSON.stringify({universe, generated_at, stats, taus, links})`.
    await write(`${JSON.stringify({ generated_at: now, stats }).slice(1, -1)},"taus":[`);
    let after: [number, string] | undefined;
    for (;;) {
      const rows = (after === undefined
        ? sql.exec(
          `SELECT address, name, owner, about, joined_at, last_seen, subs FROM agents
           ORDER BY joined_at, address LIMIT ?`,
          PAGE_ROWS,
        )
        : sql.exec(
          `SELECT address, name, owner, about, joined_at, last_seen, subs FROM agents
           WHERE (joined_at, address) > (?, ?) ORDER BY joined_at, address LIMIT ?`,
          after[0],
          after[1],
          PAGE_ROWS,
        )).toArray() as Row[];
      if (rows.length === 0) break;
      let text = "";
      for (const row of rows) text += (taus++ === 0 ? "" : ",") + tauJson(row, now);
      await write(text);
      const last = rows[rows.length - 1]!;
      after = [Number(last.joined_at), String(last.address)];
    }
    await write(`],"links":[`);
    let from: [string, string] | undefined;
    for (;;) {
      const rows = sql.exec(
        `SELECT l1.a AS a, l1.b AS b, MIN(l1.messages, l2.messages) AS messages
         FROM links l1 JOIN links l2 ON l2.a = l1.b AND l2.b = l1.a
         WHERE l1.a < l1.b AND (l1.a, l1.b) > (?, ?) ORDER BY l1.a, l1.b LIMIT ?`,
        from?.[0] ?? "",
        from?.[1] ?? "",
        PAGE_ROWS,
      ).toArray() as Row[];
      if (rows.length === 0) break;
      let text = "";
      for (const row of rows) {
        text += (links++ === 0 ? "" : ",") +
          JSON.stringify({ a: String(row.a), b: String(row.b), messages: Number(row.messages) });
      }
      await write(text);
      const last = rows[rows.length - 1]!;
      from = [String(last.a), String(last.b)];
    }
    await write("]}");
    await writer.close();
    await pump;
    // The whole file's CRC from the head's and the rest's (which the compressor gave).
    const restLength = bytes - head.byteLength;
    if (rest === undefined || rest.length !== restLength % 2 ** 32) {
      throw new Error("the compressed snapshot does not end as it should");
    }
    await upload.add(trailer(crc32Combine(crc32(head), rest.crc, restLength), bytes));
  } catch (error) {
    await writer.abort(error).catch(() => {});
    await pump.catch(() => {});
    await upload.abort();
    throw error;
  }
  const stored = await upload.finish();
  return { generated_at: now, taus, links, bytes, stored: stored.size, etag: stored.etag };
}

/**
 * The snapshot's first bytes, the only ones that name the host:
 * `{"universe":"<host>",`.
 *
 * @example
 * ```ts
 * import { snapshotHead } from "./snapshot_build.ts";
 * if (snapshotHead("u.example") !== '{"universe":"u.example",') throw new Error();
 * ```
 */
export function snapshotHead(host: string): string {
  return `{"universe":${JSON.stringify(host)},`;
}

/** One agent's snapshot entry as JSON text (`JSON.stringify` of the spec's object). */
function tauJson(row: Row, now: number): string {
  return JSON.stringify(tauOf(row, now));
}

/**
 * One agent's entry of the snapshot (and of `GET /api/taus/<address>`) from its row,
 * with its fields in the spec's order.
 */
export function tauOf(row: Record<string, unknown>, now: number): SnapshotTau {
  const lastSeen = Number(row.last_seen);
  return {
    address: String(row.address),
    name: String(row.name),
    owner: String(row.owner),
    about: String(row.about),
    joined_at: Number(row.joined_at),
    last_seen: lastSeen,
    online: now - lastSeen <= ONLINE_SECONDS,
    subs: parseSubs(row.subs),
  };
}

function parseSubs(value: unknown): UniverseSub[] {
  const text = String(value ?? "[]");
  if (text === "[]") return [];
  try {
    const parsed = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/**
 * Compressed bytes into R2: one `put` when everything fits in one part, else a
 * multipart upload of {@linkcode PART_BYTES} parts (R2 wants every part but the last
 * the same size; at most one part is held in memory).
 */
export class PartUpload {
  #bucket: R2Bucket;
  #key: string;
  #part = new Uint8Array(PART_BYTES);
  #filled = 0;
  #upload: Awaited<ReturnType<R2Bucket["createMultipartUpload"]>> | undefined;
  #parts: { partNumber: number; etag: string }[] = [];
  #options: Parameters<R2Bucket["createMultipartUpload"]>[1];

  /** An upload of `key` whose object will carry `meta` as its custom metadata. */
  constructor(bucket: R2Bucket, key: string, meta: Record<string, string>) {
    this.#bucket = bucket;
    this.#key = key;
    this.#options = {
      httpMetadata: { contentType: "application/json", contentEncoding: "gzip" },
      customMetadata: meta,
    };
  }

  /** Adds bytes; a part is uploaded whenever one is full. */
  async add(chunk: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < chunk.byteLength) {
      const take = Math.min(PART_BYTES - this.#filled, chunk.byteLength - offset);
      this.#part.set(chunk.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
      if (this.#filled === PART_BYTES) await this.#flush();
    }
  }

  async #flush(): Promise<void> {
    this.#upload ??= await this.#bucket.createMultipartUpload(this.#key, this.#options);
    const part = await this.#upload.uploadPart(
      this.#parts.length + 1,
      this.#part.subarray(0, this.#filled),
    );
    this.#parts.push({ partNumber: part.partNumber, etag: part.etag });
    this.#filled = 0;
  }

  /** Stores the object: the last part and the multipart completion, or one `put`. */
  async finish(): Promise<{ size: number; etag: string }> {
    if (this.#upload === undefined) {
      const object = await this.#bucket.put(
        this.#key,
        this.#part.subarray(0, this.#filled),
        this.#options,
      );
      return { size: object.size, etag: object.etag };
    }
    if (this.#filled > 0) await this.#flush();
    const object = await this.#upload.complete(this.#parts);
    return { size: object.size, etag: object.etag };
  }

  /** Drops a multipart upload begun (a failed build leaves the stored object as it was). */
  async abort(): Promise<void> {
    await this.#upload?.abort().catch(() => {});
  }
}
