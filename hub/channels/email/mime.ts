/**
 * A small MIME reader: a raw message (RFC 5322 bytes) as a tree of parts, each with its
 * headers, its content type and parameters (RFC 2045, RFC 2231's encoded and split
 * parameters), its disposition, and its body still transfer-encoded; multiparts split on
 * their boundary (RFC 2046). Bodies are decoded only when asked for (quoted-printable,
 * base64) and turned into text through `TextDecoder`, which knows the charsets mail
 * uses (`iso-8859-9` and `windows-1254` among them). Header words in RFC 2047 form
 * (`=?UTF-8?B?…?=`) are decoded by {@linkcode decodeWords}.
 *
 * It is ours rather than `mailparser`'s because the channel needs only this much and
 * `mailparser` (with `libmime`, `iconv-lite` and its HTML packages) kept about 6 MiB
 * resident in the hub (`docs/performance.md`). Hostile input is bounded: nesting past
 * {@linkcode MAX_DEPTH} and parts past {@linkcode MAX_PARTS} are not split further.
 *
 * @module
 */

/** The deepest a multipart is split (a forwarded mail counts again from its own top). */
export const MAX_DEPTH = 16;
/** The most parts one message is split into. */
export const MAX_PARTS = 500;

/** One header field, its name lower case and its value unfolded (not RFC 2047-decoded). */
export interface HeaderField {
  key: string;
  value: string;
}

/** One part of a message (the message itself is the top one). */
export interface MimePart {
  headers: HeaderField[];
  /** `type/subtype`, lower case; `text/plain` when the part names none. */
  type: string;
  /** `Content-Type` parameters, names lower case, values decoded. */
  params: Record<string, string>;
  /** `attachment`, `inline`, or `undefined` when the part has no `Content-Disposition`. */
  disposition: string | undefined;
  /** `Content-Disposition` parameters, as {@linkcode params}. */
  dispositionParams: Record<string, string>;
  /** `Content-Transfer-Encoding`, lower case; `7bit` when absent. */
  encoding: string;
  /** The body as it stands in the message (for a multipart, everything after the head). */
  body: Uint8Array;
  /** A multipart's parts, in order; empty for any other part. */
  parts: MimePart[];
}

const CR = 0x0d;
const LF = 0x0a;
const utf8Strict = new TextDecoder("utf-8", { fatal: true });

/**
 * Bytes as text: in `charset` when `TextDecoder` knows it, else UTF-8 when they are
 * valid UTF-8, else Windows-1252 (which every byte decodes in). A mail labelled
 * `us-ascii` whose bytes are UTF-8 (a common mistake) reads as UTF-8.
 *
 * @example
 * ```ts
 * import { decodeCharset } from "./mime.ts";
 * const b = new Uint8Array([0xde, 0xfd]);
 * if (decodeCharset(b, "ISO-8859-9") !== "Şı") throw new Error();
 * if (decodeCharset(b, undefined) !== "Þý") throw new Error();
 * if (decodeCharset(new TextEncoder().encode("ç"), "x-unknown") !== "ç") throw new Error();
 * ```
 */
export function decodeCharset(bytes: Uint8Array, charset: string | undefined): string {
  const label = charset?.trim().replace(/^"|"$/g, "").replace(/\*.*$/, "").toLowerCase();
  if (label !== undefined && label !== "" && !/^(us-)?ascii$/.test(label)) {
    const decoder = decoderFor(label);
    if (decoder !== undefined) return decoder.decode(bytes);
  }
  try {
    return utf8Strict.decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

/**
 * Header text with its RFC 2047 encoded words decoded. Whitespace between two encoded
 * words goes (a word split across folded lines joins up), and adjacent words in one
 * charset are joined as bytes before decoding, so a character split between two words
 * stays whole.
 *
 * @example
 * ```ts
 * import { decodeWords } from "./mime.ts";
 * const s = decodeWords("=?UTF-8?Q?Ay=C5?= =?UTF-8?Q?=9Fe?= and =?iso-8859-9?B?3v0=?=");
 * if (s !== "Ayşe and Şı") throw new Error(s);
 * ```
 */
export function decodeWords(text: string): string {
  const words = /=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g;
  let out = "";
  let last = 0;
  let pending: { charset: string; bytes: number[] } | undefined;
  const flush = () => {
    if (pending === undefined) return;
    out += decodeCharset(new Uint8Array(pending.bytes), pending.charset);
    pending = undefined;
  };
  for (const m of text.matchAll(words)) {
    const between = text.slice(last, m.index);
    if (pending === undefined || !/^[ \t\r\n]*$/.test(between)) {
      flush();
      out += between;
    }
    const charset = m[1]!.replace(/\*.*$/, "").toLowerCase();
    const bytes = m[2]!.toLowerCase() === "b" ? base64Bytes(m[3]!) : qBytes(m[3]!);
    if (pending !== undefined && pending.charset !== charset) flush();
    pending ??= { charset, bytes: [] };
    for (const b of bytes) pending.bytes.push(b);
    last = m.index + m[0].length;
  }
  flush();
  return out + text.slice(last);
}

/** An encoded word's Q text as bytes (`_` is a space). */
function qBytes(text: string): Uint8Array {
  return quotedPrintable(new TextEncoder().encode(text.replaceAll("_", " ")));
}

/**
 * The header block of `raw` as fields, and where the body starts. A block that is not
 * valid UTF-8 is read as Windows-1252; a line without a colon (an mbox `From ` line) is
 * skipped.
 */
export function readHeaders(raw: Uint8Array): { headers: HeaderField[]; bodyStart: number } {
  let end = raw.length;
  let bodyStart = raw.length;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== LF) continue;
    // An empty line: LF LF or LF CR LF, or the message starting with one.
    if (raw[i + 1] === LF) {
      end = i + 1;
      bodyStart = i + 2;
      break;
    }
    if (raw[i + 1] === CR && raw[i + 2] === LF) {
      end = i + 1;
      bodyStart = i + 3;
      break;
    }
  }
  if (raw[0] === LF || (raw[0] === CR && raw[1] === LF)) {
    return { headers: [], bodyStart: raw[0] === LF ? 1 : 2 };
  }
  const text = decodeCharset(raw.subarray(0, end), undefined);
  const headers: HeaderField[] = [];
  for (const line of text.replace(/\r?\n(?=[ \t])/g, "").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    if (!/^[!-9;-~]+$/.test(key)) continue;
    headers.push({ key, value: line.slice(colon + 1).trim() });
  }
  return { headers, bodyStart };
}

/** The first value of header `key` (lower case), or `undefined`. */
export function header(part: { headers: HeaderField[] }, key: string): string | undefined {
  return part.headers.find((h) => h.key === key)?.value;
}

/** Every value of header `key` (lower case), top first. */
export function headers(part: { headers: HeaderField[] }, key: string): string[] {
  return part.headers.filter((h) => h.key === key).map((h) => h.value);
}

/**
 * A structured header value split into its first token and its parameters, with
 * RFC 2231 continuations (`name*0*=`, `name*1=`) and charsets (`utf-8''%C5%9F`)
 * joined and decoded, and RFC 2047 words in plain values decoded too (mail programs
 * write them there although the RFC does not).
 *
 * @example
 * ```ts
 * import { parseParams } from "./mime.ts";
 * const p = parseParams(`attachment; filename*0*=utf-8''%C5%9Fu; filename*1=" b.txt"`);
 * if (p.value !== "attachment" || p.params.filename !== "şu b.txt") throw new Error();
 * ```
 */
export function parseParams(text: string): { value: string; params: Record<string, string> } {
  const pieces = splitOutsideQuotes(text, ";");
  const value = (pieces.shift() ?? "").trim().toLowerCase();
  const plain: Record<string, string> = {};
  const split = new Map<string, { n: number; encoded: boolean; text: string }[]>();
  for (const piece of pieces) {
    const eq = piece.indexOf("=");
    if (eq <= 0) continue;
    const rawKey = piece.slice(0, eq).trim().toLowerCase();
    let v = piece.slice(eq + 1).trim();
    if (v.startsWith('"')) v = v.replace(/^"|"$/g, "").replace(/\\(.)/g, "$1");
    const m = /^([^*]+)(?:\*(\d+))?(\*)?$/.exec(rawKey);
    if (m === null) continue;
    const [, key, n, star] = m;
    if (n === undefined && star === undefined) {
      plain[key!] = v;
      continue;
    }
    const list = split.get(key!) ?? [];
    list.push({ n: Number(n ?? 0), encoded: star !== undefined, text: v });
    split.set(key!, list);
  }
  const params: Record<string, string> = {};
  for (const [key, v] of Object.entries(plain)) params[key] = decodeWords(v);
  for (const [key, list] of split) {
    list.sort((a, b) => a.n - b.n);
    let charset: string | undefined;
    const bytes: number[] = [];
    list.forEach((p, i) => {
      let t = p.text;
      if (p.encoded && i === 0) {
        const m = /^([^']*)'[^']*'(.*)$/.exec(t);
        if (m) {
          charset = m[1];
          t = m[2]!;
        }
      }
      const b = p.encoded ? percentBytes(t) : new TextEncoder().encode(t);
      for (const x of b) bytes.push(x);
    });
    params[key] = decodeCharset(new Uint8Array(bytes), charset || undefined);
  }
  return { value, params };
}

function percentBytes(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === "%" && /^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const b of new TextEncoder().encode(text[i]!)) out.push(b);
    }
  }
  return new Uint8Array(out);
}

/** `text` split on `sep` where it is not inside double quotes. */
export function splitOutsideQuotes(text: string, sep: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === "\\" && i + 1 < text.length) {
      current += c + text[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === sep && !quoted) {
      out.push(current);
      current = "";
    } else current += c;
  }
  out.push(current);
  return out;
}

/**
 * Quoted-printable bytes decoded: `=XX` is a byte, `=` at a line end a soft break, and
 * anything else (a stray `=`) is kept as it stands.
 */
export function quotedPrintable(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x3d) {
      out[n++] = b;
      continue;
    }
    // A soft line break, maybe with spaces a transport added before it.
    let j = i + 1;
    while (bytes[j] === 0x20 || bytes[j] === 0x09) j++;
    if (bytes[j] === LF || (bytes[j] === CR && bytes[j + 1] === LF) || j === bytes.length) {
      i = bytes[j] === CR ? j + 1 : j;
      continue;
    }
    const hi = hexValue(bytes[i + 1]);
    const lo = hexValue(bytes[i + 2]);
    if (hi < 0 || lo < 0) {
      out[n++] = b;
      continue;
    }
    out[n++] = hi * 16 + lo;
    i += 2;
  }
  return out.subarray(0, n);
}

function hexValue(b: number | undefined): number {
  if (b === undefined) return -1;
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

/**
 * Base64 text decoded, skipping what is not base64 (line breaks, stray characters);
 * padding ends a run, and a run after it (two encoders' output joined) is read too.
 */
export function base64Bytes(text: string): Uint8Array {
  const runs = text.replace(/[^A-Za-z0-9+/=]/g, "").split(/=+/).map((run) =>
    // A lone last character carries no whole byte.
    Uint8Array.fromBase64(run.length % 4 === 1 ? run.slice(0, -1) : run, {
      lastChunkHandling: "loose",
    })
  );
  if (runs.length === 1) return runs[0]!;
  const out = new Uint8Array(runs.reduce((n, r) => n + r.length, 0));
  let at = 0;
  for (const r of runs) {
    out.set(r, at);
    at += r.length;
  }
  return out;
}

/** A part's body with its transfer encoding undone. */
export function decodedBody(part: Pick<MimePart, "body" | "encoding">): Uint8Array {
  if (part.encoding === "base64") return base64Bytes(latin1(part.body));
  if (part.encoding === "quoted-printable") return quotedPrintable(part.body);
  return part.body;
}

/** Bytes as a string of the same length, one character per byte. */
function latin1(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return out;
}

/**
 * A part's text: its body decoded and read in its charset, line ends as `\n`, and a
 * `format=flowed` body (RFC 3676) joined back into its paragraphs.
 */
export function partText(part: MimePart, maxBytes = Infinity): string {
  const bytes = decodedBody(part);
  const text = decodeCharset(
    bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes,
    part.params.charset,
  ).replace(/\r\n?/g, "\n");
  if (part.type !== "text/plain" || part.params.format?.toLowerCase() !== "flowed") return text;
  return unflow(text, part.params.delsp?.toLowerCase() === "yes");
}

/** RFC 3676: a line ending in a space goes on in the next one; stuffed spaces go. */
function unflow(text: string, delsp: boolean): string {
  const out: string[] = [];
  let current: string | undefined;
  for (let line of text.split("\n")) {
    if (line.startsWith(" ")) line = line.slice(1);
    const soft = line.endsWith(" ") && line !== "-- ";
    if (soft && delsp) line = line.slice(0, -1);
    current = current === undefined ? line : current + line;
    if (!soft) {
      out.push(current);
      current = undefined;
    }
  }
  if (current !== undefined) out.push(current);
  return out.join("\n");
}

/**
 * Reads a message into its tree of parts.
 *
 * @example
 * ```ts
 * import { parseMessage } from "./mime.ts";
 * const raw = new TextEncoder().encode(
 *   'Content-Type: multipart/alternative; boundary="b"\r\n\r\n--b\r\n\r\nhi\r\n--b\r\n' +
 *     "Content-Type: text/html\r\n\r\n<p>hi</p>\r\n--b--\r\n",
 * );
 * const top = parseMessage(raw);
 * if (top.type !== "multipart/alternative" || top.parts[1]?.type !== "text/html") throw new Error();
 * ```
 */
export function parseMessage(raw: Uint8Array): MimePart {
  return parsePart(raw, 0, { parts: 0 }, "text/plain");
}

function parsePart(
  raw: Uint8Array,
  depth: number,
  count: { parts: number },
  defaultType: string,
): MimePart {
  count.parts++;
  const { headers: fields, bodyStart } = readHeaders(raw);
  const ct = parseParams(header({ headers: fields }, "content-type") ?? "");
  const cd = header({ headers: fields }, "content-disposition");
  const disposition = cd === undefined ? undefined : parseParams(cd);
  const type = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(ct.value) ? ct.value : defaultType;
  const part: MimePart = {
    headers: fields,
    type,
    params: ct.params,
    disposition: disposition?.value || undefined,
    dispositionParams: disposition?.params ?? {},
    encoding: (header({ headers: fields }, "content-transfer-encoding") ?? "7bit").trim()
      .toLowerCase(),
    body: raw.subarray(bodyStart),
    parts: [],
  };
  const boundary = ct.params.boundary;
  if (type.startsWith("multipart/") && boundary && depth < MAX_DEPTH) {
    // A digest's parts are mails unless they say otherwise (RFC 2046, 5.1.5).
    const inner = type === "multipart/digest" ? "message/rfc822" : "text/plain";
    for (const body of splitMultipart(part.body, boundary)) {
      if (count.parts >= MAX_PARTS) break;
      part.parts.push(parsePart(body, depth + 1, count, inner));
    }
  }
  return part;
}

/** The bodies between a multipart's boundary lines (preamble and epilogue left out). */
export function splitMultipart(body: Uint8Array, boundary: string): Uint8Array[] {
  const mark = new TextEncoder().encode(`--${boundary}`);
  const parts: Uint8Array[] = [];
  let start = -1;
  let from = 0;
  while (true) {
    const at = indexOf(body, mark, from);
    if (at < 0) break;
    from = at + 1;
    if (at > 0 && body[at - 1] !== LF) continue;
    let after = at + mark.length;
    const closing = body[after] === 0x2d && body[after + 1] === 0x2d;
    if (closing) after += 2;
    while (body[after] === 0x20 || body[after] === 0x09) after++;
    // A longer boundary that starts with this one is not this one.
    if (after < body.length && body[after] !== CR && body[after] !== LF) continue;
    if (start >= 0) {
      let end = at;
      if (end > start && body[end - 1] === LF) end--;
      if (end > start && body[end - 1] === CR) end--;
      parts.push(body.subarray(start, end));
    }
    if (closing) return parts;
    if (body[after] === CR) after++;
    if (body[after] === LF) after++;
    start = after;
    from = after;
  }
  // No closing line: the last part runs to the end.
  if (start >= 0 && start < body.length) parts.push(body.subarray(start));
  return parts;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  const last = haystack.length - needle.length;
  for (
    let i = haystack.indexOf(first, from);
    i >= 0 && i <= last;
    i = haystack.indexOf(first, i + 1)
  ) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}
