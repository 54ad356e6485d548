import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { gunzipSync, gzipSync } from "node:zlib";
import {
  crc32,
  crc32Combine,
  crc32SwapHead,
  deflateBody,
  headBlock,
  trailer,
} from "./_gzip_splice.ts";

const encode = (text: string) => new TextEncoder().encode(text);

/** A spliced gzip file: `head` in a stored block, `rest` compressed by CompressionStream. */
async function spliced(head: Uint8Array, rest: Uint8Array<ArrayBuffer>) {
  let restTrailer: { crc: number; length: number } | undefined;
  const middle = new Uint8Array(
    await new Response(
      new Blob([rest]).stream()
        .pipeThrough(new CompressionStream("gzip"))
        .pipeThrough(deflateBody((t) => restTrailer = t)),
    ).arrayBuffer(),
  );
  assert.deepEqual(restTrailer, { crc: crc32(rest), length: rest.length });
  const crc = crc32Combine(crc32(head), restTrailer!.crc, rest.length);
  return { middle, file: join(headBlock(head), middle, trailer(crc, head.length + rest.length)) };
}

function join(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")))
    .text();
}

Deno.test("crc32() and crc32Combine() agree with zlib's CRC of the whole", () => {
  assert.equal(crc32(encode("123456789")), 0xcbf43926);
  const a = encode('{"universe":"u.example",');
  const b = encode('"generated_at":1,"taus":[]}'.repeat(1000));
  const whole = gzipSync(join(a, b));
  const crcWhole = new DataView(whole.buffer, whole.byteOffset + whole.length - 8).getUint32(
    0,
    true,
  );
  assert.equal(crc32Combine(crc32(a), crc32(b), b.length), crcWhole);
  assert.equal(crc32Combine(crc32(a), crc32(new Uint8Array()), 0), crc32(a));
});

Deno.test("a spliced gzip file decompresses, and its head can be swapped without compressing again", async () => {
  const rest = encode(`"generated_at":1,"taus":[${'{"address":"a.example"},'.repeat(5000)}0]}`);
  const oldHead = encode('{"universe":"",');
  const { middle, file } = await spliced(oldHead, rest);
  assert.equal(await gunzip(file), new TextDecoder().decode(join(oldHead, rest)));
  assert.deepEqual(gunzipSync(file), Buffer.from(join(oldHead, rest)));
  for (const host of ["127.0.0.1:8788", "universe.example", "ü.example", "x".repeat(300)]) {
    const newHead = encode(`{"universe":${JSON.stringify(host)},`);
    const crc = crc32SwapHead(
      crc32Combine(crc32(oldHead), crc32(rest), rest.length),
      oldHead,
      newHead,
      rest.length,
    );
    const swapped = join(headBlock(newHead), middle, trailer(crc, newHead.length + rest.length));
    // The decompressors check the CRC and the length: a wrong one is an error.
    assert.equal(await gunzip(swapped), new TextDecoder().decode(join(newHead, rest)));
    assert.deepEqual(gunzipSync(swapped), Buffer.from(join(newHead, rest)));
    const wrong = join(headBlock(newHead), middle, trailer(crc ^ 1, newHead.length + rest.length));
    assert.throws(() => gunzipSync(wrong));
  }
});

Deno.test("headBlock() refuses a head over 64 KiB", () => {
  assert.throws(() => headBlock(new Uint8Array(65_536)), RangeError);
});
