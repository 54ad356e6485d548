/**
 * The few MIME writing rules an answer needs: header text outside ASCII as RFC 2047
 * encoded words (UTF-8, base64, never a character split between two words), long
 * header lines folded, bodies as quoted-printable UTF-8 with lines of at most 76
 * characters, and the date as RFC 5322 writes it. What `mime.ts` reads, this writes;
 * `nodemailer`'s composer did the same with about 1 MiB more resident in the hub.
 *
 * @module
 */

const enc = new TextEncoder();

/** Whether `text` can stand in a header as written (printable ASCII, no encoded-word look). */
function plainHeaderText(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text) && !text.includes("=?");
}

/**
 * Header text as it is written: as is when it is printable ASCII, else as UTF-8 encoded
 * words separated by spaces (which a reader drops between two words), each at most 64
 * characters, so that {@linkcode headerLine} can fold between them and keep `Subject: `
 * and a word within 76. Control characters (a line break in a subject) become spaces
 * first: a header holds one line, whatever the text it came from.
 *
 * @example
 * ```ts
 * import { encodeHeaderText } from "./mime_write.ts";
 * import { decodeWords } from "./mime.ts";
 * if (encodeHeaderText("Re: Hi") !== "Re: Hi") throw new Error();
 * const long = "Re: Şirket toplantısı ".repeat(6);
 * const written = encodeHeaderText(long);
 * if (written.split(" ").some((w) => w.length > 64)) throw new Error(written);
 * if (decodeWords(written) !== long) throw new Error(written);
 * ```
 */
export function encodeHeaderText(text: string): string {
  // deno-lint-ignore no-control-regex -- the control characters are what is replaced
  const line = text.replace(/[\x00-\x1f\x7f]/g, " ");
  if (plainHeaderText(line)) return line;
  // 39 bytes are 52 base64 characters (no padding inside the text): 64 with `=?UTF-8?B?`
  // and `?=`. A character's bytes stay in one word, as RFC 2047 asks.
  const words: string[] = [];
  let chunk = "";
  let size = 0;
  for (const ch of line) {
    const n = enc.encode(ch).length;
    if (size + n > 39) {
      words.push(chunk);
      chunk = "";
      size = 0;
    }
    chunk += ch;
    size += n;
  }
  if (chunk !== "") words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${enc.encode(w).toBase64()}?=`).join(" ");
}

/**
 * One header line, folded (CRLF and a space) before a space wherever the line would
 * pass 78 characters, so a list of Message-IDs or encoded words folds between them; a
 * single word longer than that stays whole (RFC 5322 allows 998). Line breaks in the
 * value become spaces: a value cannot add a header.
 *
 * @example
 * ```ts
 * import { headerLine } from "./mime_write.ts";
 * const refs = Array.from({ length: 5 }, (_, i) => `<message.${i}.abcdef@example.com>`);
 * const line = headerLine("References", refs.join(" "));
 * if (line.split("\r\n").some((l) => l.length > 78)) throw new Error(line);
 * if (line.replaceAll("\r\n", "") !== `References: ${refs.join(" ")}`) throw new Error(line);
 * if (headerLine("Subject", "a\r\nBcc: x") !== "Subject: a  Bcc: x") throw new Error();
 * ```
 */
export function headerLine(name: string, value: string): string {
  const line = `${name}: ${value.replace(/[\r\n]/g, " ")}`;
  if (line.length <= 78) return line;
  const out: string[] = [];
  const [first, ...rest] = line.split(" ");
  // The name and the value's first word stay on one line: some readers want both there.
  let current = `${first} ${rest.shift()}`;
  for (const word of rest) {
    if (current.length + 1 + word.length > 78) {
      out.push(current);
      current = ` ${word}`;
    } else current = `${current} ${word}`;
  }
  out.push(current);
  return out.join("\r\n");
}

/**
 * Text as quoted-printable UTF-8 with CRLF line ends: `=`, controls and every byte
 * outside ASCII as `=XX`, a space or tab at a line's end encoded, soft breaks (`=`)
 * keeping each line within 76 characters.
 *
 * @example
 * ```ts
 * import { encodeQuotedPrintable } from "./mime_write.ts";
 * import { quotedPrintable } from "./mime.ts";
 * const text = "Çay = 2 TL \n" + "ş".repeat(60);
 * const qp = encodeQuotedPrintable(text);
 * if (qp.split("\r\n").some((l) => l.length > 76)) throw new Error(qp);
 * const back = new TextDecoder().decode(quotedPrintable(new TextEncoder().encode(qp)));
 * if (back !== text.replaceAll("\n", "\r\n")) throw new Error(back);
 * ```
 */
export function encodeQuotedPrintable(text: string): string {
  const lines: string[] = [];
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    const bytes = enc.encode(line);
    let out = "";
    let width = 0;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      const last = i === bytes.length - 1;
      const literal = (b >= 0x21 && b <= 0x7e && b !== 0x3d) ||
        ((b === 0x20 || b === 0x09) && !last);
      const piece = literal
        ? String.fromCharCode(b)
        : `=${b.toString(16).toUpperCase().padStart(2, "0")}`;
      // Room is kept for the soft break's `=`, unless this piece ends the line.
      if (width + piece.length > (last ? 76 : 75)) {
        out += "=\r\n";
        width = 0;
      }
      out += piece;
      width += piece.length;
    }
    lines.push(out);
  }
  return lines.join("\r\n");
}

/**
 * A date as RFC 5322 writes it, in UTC.
 *
 * @example
 * ```ts
 * import { mailDate } from "./mime_write.ts";
 * if (mailDate(new Date(Date.UTC(2026, 10, 2, 6, 5, 9))) !== "Mon, 02 Nov 2026 06:05:09 +0000") {
 *   throw new Error();
 * }
 * ```
 */
export function mailDate(date: Date): string {
  return date.toUTCString().replace(/GMT$/, "+0000");
}

/** A fresh multipart boundary, one no text of ours contains. */
export function newBoundary(): string {
  return `=_agent_${crypto.getRandomValues(new Uint8Array(12)).toHex()}`;
}
