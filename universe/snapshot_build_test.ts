import assert from "node:assert/strict";
import type { R2Bucket } from "@cloudflare/workers-types/index.ts";
import { PART_BYTES, PartUpload } from "./snapshot_build.ts";

/** An R2 bucket in memory that records how each object was written. */
function memoryBucket() {
  const log: string[] = [];
  const objects = new Map<string, { bytes: Uint8Array; meta: unknown }>();
  const parts: Uint8Array[] = [];
  const bucket = {
    put(key: string, bytes: Uint8Array, options: { customMetadata?: unknown }) {
      log.push(`put ${bytes.byteLength}`);
      objects.set(key, { bytes: bytes.slice(), meta: options.customMetadata });
      return Promise.resolve({ size: bytes.byteLength, etag: "one" });
    },
    createMultipartUpload(key: string, options: { customMetadata?: unknown }) {
      log.push("create");
      return Promise.resolve({
        uploadPart(n: number, bytes: Uint8Array) {
          log.push(`part ${n} ${bytes.byteLength}`);
          parts.push(bytes.slice());
          return Promise.resolve({ partNumber: n, etag: `p${n}` });
        },
        complete(list: { partNumber: number; etag: string }[]) {
          log.push(`complete ${list.map((p) => p.etag).join(",")}`);
          const size = parts.reduce((n, p) => n + p.byteLength, 0);
          const bytes = new Uint8Array(size);
          let at = 0;
          for (const p of parts) {
            bytes.set(p, at);
            at += p.byteLength;
          }
          objects.set(key, { bytes, meta: options.customMetadata });
          return Promise.resolve({ size, etag: "multi" });
        },
        abort() {
          log.push("abort");
          return Promise.resolve();
        },
      });
    },
  };
  return { bucket: bucket as unknown as R2Bucket, log, objects };
}

function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed) & 255;
  return out;
}

Deno.test("PartUpload stores a small object with one put and its metadata", async () => {
  const { bucket, log, objects } = memoryBucket();
  const upload = new PartUpload(bucket, "k", { generated_at: "5" });
  await upload.add(bytes(10, 1));
  await upload.add(bytes(20, 2));
  assert.deepEqual(await upload.finish(), { size: 30, etag: "one" });
  assert.deepEqual(log, ["put 30"]);
  assert.deepEqual(objects.get("k")?.meta, { generated_at: "5" });
  assert.deepEqual(objects.get("k")?.bytes, new Uint8Array([...bytes(10, 1), ...bytes(20, 2)]));
});

Deno.test("PartUpload splits a large object into equal parts and a shorter last one", async () => {
  const { bucket, log, objects } = memoryBucket();
  const upload = new PartUpload(bucket, "k", { host: "u.example" });
  const chunks = [bytes(3_000_000, 1), bytes(4_000_000, 2), bytes(5_000_000, 3)];
  for (const c of chunks) await upload.add(c);
  const total = 12_000_000;
  assert.deepEqual(await upload.finish(), { size: total, etag: "multi" });
  assert.deepEqual(log, [
    "create",
    `part 1 ${PART_BYTES}`,
    `part 2 ${PART_BYTES}`,
    `part 3 ${total - 2 * PART_BYTES}`,
    "complete p1,p2,p3",
  ]);
  const stored = objects.get("k")!;
  assert.deepEqual(stored.meta, { host: "u.example" });
  const expected = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    expected.set(c, at);
    at += c.byteLength;
  }
  assert.ok(stored.bytes.every((b, i) => b === expected[i]));
});

Deno.test("PartUpload.abort() drops a multipart upload begun", async () => {
  const { bucket, log, objects } = memoryBucket();
  const upload = new PartUpload(bucket, "k", {});
  await upload.add(bytes(PART_BYTES + 1, 1));
  await upload.abort();
  assert.deepEqual(log, ["create", `part 1 ${PART_BYTES}`, "abort"]);
  assert.equal(objects.size, 0);
});
