/**
 * A gzip file whose first bytes can be swapped without compressing again. The stored
 * snapshot begins with `{"universe":"<host>",`, and with an empty `UNIVERSE` each
 * reader's own host belongs there; the rest (up to hundreds of MiB) is the same for
 * everyone. So the head is kept in a stored (uncompressed) deflate block of its own,
 * right after the 10-byte gzip header; a reader under another host gets a new header
 * and head block, the compressed rest as it lies in R2, and a trailer whose CRC-32 is
 * worked out from the stored one (CRC-32 is linear: the head's part can be taken out
 * and another's put in, knowing only the rest's length).
 *
 * @module
 */

/** The 10-byte gzip header: deflate, no flags, no time, unknown OS. */
export const GZIP_HEADER: Uint8Array = new Uint8Array([
  0x1f,
  0x8b,
  8,
  0,
  0,
  0,
  0,
  0,
  0,
  0xff,
]);

/** Bytes before a head's text: the gzip header and the stored block's own header. */
export const HEAD_OFFSET = GZIP_HEADER.length + 5;

/** The longest head a stored block holds. */
export const HEAD_MAX = 65_535;

const POLY = 0xedb88320;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? POLY ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * The CRC-32 (gzip's) of `bytes`.
 *
 * @example
 * ```ts
 * import { crc32 } from "./_gzip_splice.ts";
 * if (crc32(new TextEncoder().encode("123456789")) !== 0xcbf43926) throw new Error();
 * ```
 */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** `a` times `b` modulo the CRC polynomial (bit-reflected), as zlib's `multmodp`. */
function multiply(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if ((a & m) !== 0) {
      p = (p ^ b) >>> 0;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? ((b >>> 1) ^ POLY) >>> 0 : b >>> 1;
  }
  return p >>> 0;
}

// x^(2^k) modulo the polynomial, for k = 0..31 (x^1 first).
const X2N = (() => {
  const table: number[] = [];
  let p = 0x40000000;
  table.push(p);
  for (let n = 1; n < 32; n++) table.push(p = multiply(p, p));
  return table;
})();

/** x^(8 * bytes) modulo the polynomial: how far a CRC moves past `bytes` more bytes. */
function shiftBy(bytes: number): number {
  let p = 0x80000000;
  let k = 3;
  for (let n = bytes; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2 === 1) p = multiply(X2N[k & 31]!, p);
  }
  return p;
}

/**
 * The CRC-32 of `A + B` from the CRC-32s of `A` and `B` and the length of `B` (zlib's
 * `crc32_combine`).
 */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multiply(shiftBy(lengthB), crcA) ^ crcB) >>> 0;
}

/**
 * The CRC-32 of `newHead + rest` from that of `oldHead + rest`, with both heads and the
 * rest's length: `rest` itself is never read.
 */
export function crc32SwapHead(
  crcWhole: number,
  oldHead: Uint8Array,
  newHead: Uint8Array,
  restLength: number,
): number {
  return (crcWhole ^ multiply(shiftBy(restLength), crc32(oldHead) ^ crc32(newHead))) >>> 0;
}

/** The gzip header and a non-final stored deflate block holding `head`. */
export function headBlock(head: Uint8Array): Uint8Array {
  if (head.length > HEAD_MAX) throw new RangeError("Cannot store the head: it is over 64 KiB");
  const out = new Uint8Array(HEAD_OFFSET + head.length);
  out.set(GZIP_HEADER);
  const at = GZIP_HEADER.length;
  // BFINAL 0, BTYPE 00 (stored), then LEN and its one's complement, little-endian.
  out[at] = 0;
  out[at + 1] = head.length & 0xff;
  out[at + 2] = head.length >>> 8;
  out[at + 3] = ~head.length & 0xff;
  out[at + 4] = (~head.length >>> 8) & 0xff;
  out.set(head, HEAD_OFFSET);
  return out;
}

/** The 8-byte gzip trailer: CRC-32, then the length modulo 2^32, little-endian. */
export function trailer(crc: number, length: number): Uint8Array {
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  view.setUint32(0, crc >>> 0, true);
  view.setUint32(4, length % 2 ** 32, true);
  return out;
}

/** A trailer's CRC-32 and length (modulo 2^32). */
export function readTrailer(bytes: Uint8Array): { crc: number; length: number } {
  if (bytes.length !== 8) throw new RangeError("Cannot read a gzip trailer: it is not 8 bytes");
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  return { crc: view.getUint32(0, true), length: view.getUint32(4, true) };
}

/**
 * A gzip compressor's output turned into the middle of a spliced file: its 10-byte
 * header dropped (it must carry no optional fields), its 8-byte trailer kept back
 * and handed to `onTrailer` at the end.
 */
export function deflateBody(
  onTrailer: (trailer: { crc: number; length: number }) => void,
): TransformStream<Uint8Array, Uint8Array> {
  let header = 0;
  let held = new Uint8Array(0);
  return new TransformStream({
    transform(chunk, controller) {
      let bytes = chunk;
      if (header < GZIP_HEADER.length) {
        const take = Math.min(GZIP_HEADER.length - header, bytes.length);
        if (header <= 3 && header + take > 3 && bytes[3 - header] !== 0) {
          throw new TypeError("Cannot splice the gzip stream: its header has optional fields");
        }
        header += take;
        bytes = bytes.subarray(take);
      }
      const all = new Uint8Array(held.length + bytes.length);
      all.set(held);
      all.set(bytes, held.length);
      const keep = Math.min(8, all.length);
      if (all.length > keep) controller.enqueue(all.slice(0, all.length - keep));
      held = all.slice(all.length - keep);
    },
    flush() {
      onTrailer(readTrailer(held));
    },
  });
}
