import assert from "node:assert/strict";
import { decodeWords, quotedPrintable } from "./mime.ts";
import {
  encodeHeaderText,
  encodeQuotedPrintable,
  headerLine,
  mailDate,
  newBoundary,
} from "./mime_write.ts";

const dec = new TextDecoder();
const enc = new TextEncoder();

/** The text of each encoded word on its own; throws when a word holds part of a character. */
function wordTexts(written: string): string[] {
  const strict = new TextDecoder("utf-8", { fatal: true });
  return written.split(" ").map((word) => {
    const m = /^=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=$/.exec(word);
    assert.ok(m, `not an encoded word: ${word}`);
    return strict.decode(Uint8Array.fromBase64(m[1]!));
  });
}

Deno.test("encodeHeaderText() leaves printable ASCII as written", () => {
  assert.equal(encodeHeaderText("Re: Lunch on Friday?"), "Re: Lunch on Friday?");
  assert.equal(encodeHeaderText(""), "");
});

Deno.test("encodeHeaderText() encodes Turkish text and reads back through decodeWords()", () => {
  for (
    const subject of [
      "Re: Şirket toplantısı",
      "Re: İĞÜŞÖÇ ığüşöç",
      "Ödeme hatırlatması — 3 gün kaldı",
    ]
  ) {
    const written = encodeHeaderText(subject);
    assert.match(written, /^[\x21-\x7e ]+$/, "the header is 7-bit");
    assert.equal(decodeWords(written), subject);
  }
});

Deno.test("encodeHeaderText() never splits a character between two words", () => {
  // Two-, three- and four-byte characters, at every offset against the 39-byte words.
  for (let pad = 0; pad < 4; pad++) {
    const text = "x".repeat(pad) + "ş€🙂".repeat(20);
    const written = encodeHeaderText(text);
    const words = wordTexts(written);
    assert.ok(words.length > 1);
    assert.equal(words.join(""), text);
    for (const word of written.split(" ")) assert.ok(word.length <= 64, word);
  }
});

Deno.test("encodeHeaderText() encodes ASCII that looks like an encoded word, and drops controls", () => {
  const looks = "Re: =?UTF-8?B?aGk=?= literal";
  const written = encodeHeaderText(looks);
  assert.notEqual(written, looks);
  assert.equal(decodeWords(written), looks);
  assert.equal(encodeHeaderText("a\r\nBcc: x\tz\x00"), "a  Bcc: x z ");
});

Deno.test("headerLine() folds an encoded subject between words, each line within 76", () => {
  const subject = "Re: " + "Fatura ve sözleşme güncellemesi hakkında ".repeat(4);
  const line = headerLine("Subject", encodeHeaderText(subject));
  const lines = line.split("\r\n");
  assert.ok(lines.length > 2);
  for (const l of lines) assert.ok(l.length <= 76, l);
  for (const l of lines.slice(1)) assert.ok(l.startsWith(" "), "a fold starts with a space");
  // Unfolded (RFC 5322: remove CRLF), the value reads back.
  assert.equal(decodeWords(line.replaceAll("\r\n", "").slice("Subject: ".length)), subject);
});

Deno.test("headerLine() keeps a short line and an over-long word whole", () => {
  assert.equal(headerLine("To", "me@example.com"), "To: me@example.com");
  const id = `<${"a".repeat(90)}@example.com>`;
  assert.equal(headerLine("In-Reply-To", id), `In-Reply-To: ${id}`);
  const refs = headerLine("References", `<r@x> ${id} <s@x>`);
  assert.deepEqual(refs.split("\r\n"), ["References: <r@x>", ` ${id}`, " <s@x>"]);
});

Deno.test("encodeQuotedPrintable() keeps lines within 76 and reads back byte for byte", () => {
  const text = [
    "Merhaba Ayşe,",
    "",
    "Toplantı perşembe 14:00'te; gündem: bütçe = 12.500 TL, ulaşım, çay. ".repeat(4),
    "a trailing space ",
    "a trailing tab\t",
    "=3D is not an escape here",
    "ğ".repeat(50),
    "x".repeat(75) + "ş",
  ].join("\n");
  const qp = encodeQuotedPrintable(text);
  assert.match(qp, /^[\x20-\x7e\r\n]*$/, "7-bit, CRLF lines");
  for (const l of qp.split("\r\n")) {
    assert.ok(l.length <= 76, l);
    assert.ok(!/[ \t]$/.test(l), `a line ends in white space: ${JSON.stringify(l)}`);
    const body = l.endsWith("=") ? l.slice(0, -1) : l;
    assert.ok(!/=[0-9A-F]?$/.test(body), `an escape split by a soft break: ${l}`);
  }
  assert.equal(dec.decode(quotedPrintable(enc.encode(qp))), text.replaceAll("\n", "\r\n"));
});

Deno.test("encodeQuotedPrintable() writes CR LF and lone CR as one line end", () => {
  assert.equal(encodeQuotedPrintable("a\r\nb\rc\n"), "a\r\nb\r\nc\r\n");
  assert.equal(encodeQuotedPrintable("ç"), "=C3=A7");
});

Deno.test("mailDate() writes RFC 5322 dates in UTC with two-digit days", () => {
  assert.equal(
    mailDate(new Date(Date.UTC(2026, 0, 5, 23, 59, 1))),
    "Mon, 05 Jan 2026 23:59:01 +0000",
  );
});

Deno.test("newBoundary() is fresh each time and stays within the boundary alphabet", () => {
  const a = newBoundary();
  assert.notEqual(a, newBoundary());
  assert.match(a, /^[0-9A-Za-z'()+_,\-./:=?]{1,70}$/);
});
