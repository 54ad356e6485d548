/**
 * Encodes AWS event-stream messages (`application/vnd.amazon.eventstream`), the binary
 * framing Bedrock's ConverseStream answers with: prelude (total length, headers
 * length, CRC32), string headers, payload, message CRC32.
 *
 * @module
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) crc = CRC_TABLE[(crc ^ b) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** One event-stream message with string headers and a JSON payload. */
export function encodeEventMessage(headers: Record<string, string>, payload: unknown): Uint8Array {
  const enc = new TextEncoder();
  const headerParts: Uint8Array[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = enc.encode(name);
    const v = enc.encode(value);
    const part = new Uint8Array(1 + n.length + 1 + 2 + v.length);
    part[0] = n.length;
    part.set(n, 1);
    part[1 + n.length] = 7; // string
    new DataView(part.buffer).setUint16(2 + n.length, v.length);
    part.set(v, 4 + n.length);
    headerParts.push(part);
  }
  const headerLength = headerParts.reduce((s, p) => s + p.length, 0);
  const body = enc.encode(JSON.stringify(payload));
  const total = 12 + headerLength + body.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headerLength);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  let offset = 12;
  for (const p of headerParts) {
    out.set(p, offset);
    offset += p.length;
  }
  out.set(body, offset);
  offset += body.length;
  view.setUint32(offset, crc32(out.subarray(0, offset)));
  return out;
}

/** A Bedrock ConverseStream event (`:event-type` = `type`). */
export function converseEvent(type: string, payload: unknown): Uint8Array {
  return encodeEventMessage({
    ":event-type": type,
    ":content-type": "application/json",
    ":message-type": "event",
  }, payload);
}
