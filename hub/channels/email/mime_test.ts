import assert from "node:assert/strict";
import { parseAddresses } from "./address.ts";
import { htmlText } from "./html_text.ts";
import { type IncomingMail, readMail } from "./mail.ts";
import {
  base64Bytes,
  decodeCharset,
  decodeWords,
  MAX_DEPTH,
  parseMessage,
  parseParams,
  quotedPrintable,
  splitMultipart,
} from "./mime.ts";

const enc = new TextEncoder();
const crlf = (lines: string[]) => enc.encode(lines.join("\r\n"));
const b64 = (text: string) => enc.encode(text).toBase64();

/** A forwarded mail that has an attachment of its own. */
const FORWARDED_WITH_ATTACHMENT = [
  "From: =?ISO-8859-9?Q?=DEule_Ka=FEa?= <sule@example.org>",
  "Subject: =?UTF-8?Q?Fatura_=C5=9Fubat?=",
  "Date: Tue, 03 Nov 2026 10:00:00 +0300",
  "MIME-Version: 1.0",
  'Content-Type: multipart/mixed; boundary="inner"',
  "",
  "--inner",
  "Content-Type: text/plain; charset=windows-1254",
  "Content-Transfer-Encoding: quoted-printable",
  "",
  "Faturay=FD ekte bulabilirsiniz.",
  "--inner",
  'Content-Type: text/csv; name="fatura.csv"',
  'Content-Disposition: attachment; filename="fatura.csv"',
  "Content-Transfer-Encoding: base64",
  "",
  b64("kalem,tutar\nçay,12\n"),
  "--inner--",
  "",
];

interface Shape {
  name: string;
  raw: Uint8Array;
  cap?: number;
  want: Partial<IncomingMail>;
}

const SHAPES: Shape[] = [
  {
    name: "a plain 7bit mail without MIME headers",
    raw: crlf(["From: ali@example.org", "Subject: hello", "", "Just text.", ""]),
    want: { subject: "hello", text: "Just text.", attachments: [] },
  },
  {
    name: "an 8bit UTF-8 body and header with no charset named",
    raw: enc.encode("From: Ayşe <a@example.com>\nSubject: Çay?\n\nÇay içelim mi? ğüşıöç\n"),
    want: {
      subject: "Çay?",
      text: "Çay içelim mi? ğüşıöç",
      from: { address: "a@example.com", name: "Ayşe" },
    },
  },
  {
    name: "an 8bit iso-8859-9 body",
    raw: new Uint8Array([
      ...enc.encode("From: a@example.com\r\nContent-Type: text/plain; charset=iso-8859-9\r\n"),
      ...enc.encode("Content-Transfer-Encoding: 8bit\r\n\r\n"),
      0xde,
      0xfd,
      0xf0,
      0xfe,
      0x0d,
      0x0a,
    ]),
    want: { text: "Şığş" },
  },
  {
    name: "a missing charset on 8-bit Windows-1252 bytes",
    raw: new Uint8Array([...enc.encode("From: a@example.com\r\n\r\ncaf"), 0xe9, 0x0d, 0x0a]),
    want: { text: "café" },
  },
  {
    name: "encoded words split across folded lines, a character split between words",
    raw: crlf([
      "From: a@example.com",
      "Subject: =?UTF-8?B?w5bDp8O8bmPDvCBn?=",
      " =?UTF-8?B?w7xu?= =?UTF-8?Q?_=C5?=",
      "\t=?UTF-8?Q?=9Fubat?= sonu",
      "",
      "x",
    ]),
    want: { subject: "Öçüncü gün şubat sonu" },
  },
  {
    name: "encoded words in two charsets, lower-case markers, a language tag",
    raw: crlf([
      "From: a@example.com",
      "Subject: =?windows-1254?q?=DE?= =?utf-8*tr?b?xLE=?= ok",
      "",
      "x",
    ]),
    want: { subject: "Şı ok" },
  },
  {
    name: "multipart/alternative: the plain part, not the HTML one",
    raw: crlf([
      "From: a@example.com",
      'Content-Type: multipart/alternative; boundary="alt"',
      "",
      "--alt",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "D=C3=BCz metin, uzun bir sat=C4=B1r=",
      " devam ediyor.",
      "--alt",
      "Content-Type: text/html; charset=utf-8",
      "",
      "<p>HTML metin</p>",
      "--alt--",
    ]),
    want: { text: "Düz metin, uzun bir satır devam ediyor.", attachments: [] },
  },
  {
    name: "an HTML-only mail read as text",
    raw: crlf([
      "From: a@example.com",
      "Content-Type: text/html; charset=iso-8859-9",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "<html><head><style>p{color:red}</style></head><body><p>Merhaba&nbsp;=DEule,</p>",
      "<div>Toplant=FD <b>yar=FDn</b>.<br>Sevgiler</div><script>alert(1)</script></body></html>",
    ]),
    want: { text: "Merhaba Şule,\n\nToplantı yarın.\nSevgiler" },
  },
  {
    name: "nested multiparts: mixed > related > alternative, an inline image, a PDF",
    raw: crlf([
      "From: a@example.com",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="m"',
      "",
      "This is a multi-part message in MIME format.",
      "--m",
      'Content-Type: multipart/related; boundary="r"',
      "",
      "--r",
      'Content-Type: multipart/alternative; boundary="a"',
      "",
      "--a",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "See the logo.",
      "--a",
      "Content-Type: text/html; charset=utf-8",
      "",
      '<p>See the logo <img src="cid:logo"></p>',
      "--a--",
      "--r",
      "Content-Type: image/png",
      "Content-ID: <logo>",
      "Content-Transfer-Encoding: base64",
      "",
      "iVBORw0KGgo=",
      "--r--",
      "--m",
      'Content-Type: application/pdf; name="=?UTF-8?Q?rapor_=C5=9Fubat.pdf?="',
      "Content-Disposition: attachment;",
      " filename*=utf-8''rapor%20%C5%9Fubat.pdf",
      "Content-Transfer-Encoding: base64",
      "",
      "JVBERi0xLjQK",
      "--m--",
      "epilogue",
    ]),
    want: {
      text: "See the logo.",
      attachments: [
        { name: "attachment", type: "image/png", size: 8 },
        { name: "rapor şubat.pdf", type: "application/pdf", size: 9 },
      ],
    },
  },
  {
    name: "a text attachment in its own charset, read, and a binary one only listed",
    raw: crlf([
      "From: a@example.com",
      'Content-Type: multipart/mixed; boundary="x"',
      "",
      "--x",
      "",
      "Body.",
      "--x",
      "Content-Type: text/plain; charset=iso-8859-9",
      'Content-Disposition: attachment; filename="notlar.txt"',
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "=DEeker, =E7ay",
      "--x",
      "Content-Type: application/octet-stream",
      'Content-Disposition: attachment; filename="a.bin"',
      "Content-Transfer-Encoding: base64",
      "",
      "AAEC",
      "--x--",
    ]),
    want: {
      text: "Body.",
      attachments: [
        { name: "notlar.txt", type: "text/plain", size: 10, text: "Şeker, çay" },
        { name: "a.bin", type: "application/octet-stream", size: 3 },
      ],
    },
  },
  {
    name: "a forwarded mail with its own attachment, read within the cap",
    raw: crlf([
      "From: a@example.com",
      'Content-Type: multipart/mixed; boundary="outer"',
      "",
      "--outer",
      "Content-Type: text/plain",
      "",
      "Forwarding this.",
      "--outer",
      "Content-Type: message/rfc822",
      "Content-Disposition: inline",
      "",
      ...FORWARDED_WITH_ATTACHMENT,
      "--outer--",
    ]),
    want: {
      text: "Forwarding this.",
      attachments: [{
        name: "Fatura şubat",
        type: "message/rfc822",
        size: crlf(FORWARDED_WITH_ATTACHMENT).length,
        text: 'From: "Şule Kaşa" <sule@example.org>\nDate: 2026-11-03T07:00:00.000Z\n' +
          "Subject: Fatura şubat\n\nFaturayı ekte bulabilirsiniz.",
      }],
    },
  },
  {
    name: "a forwarded mail past the cap is cut on a character",
    // The head is 39 bytes: one "ğ" (2 bytes) fits in 41, not in 40.
    cap: 41,
    raw: crlf([
      "From: a@example.com",
      'Content-Type: multipart/mixed; boundary="o"',
      "",
      "--o",
      "",
      "fwd",
      "--o",
      "Content-Type: message/rfc822",
      'Content-Disposition: attachment; filename="fwd.eml"',
      "",
      "From: b@example.org",
      "Subject: x",
      "",
      "ğğğğğğğğğğğğğğğğğğğğ",
      "--o--",
    ]),
    want: {
      attachments: [{
        name: "fwd.eml",
        type: "message/rfc822",
        size: 75,
        text: "From: b@example.org\nDate: \nSubject: x\n\nğ",
        cut: true,
      }],
    },
  },
  {
    name: "bad base64: stray characters and a broken last quantum",
    raw: crlf([
      "From: a@example.com",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      "TWVy*aGFi#YQ==",
      "IQ=", // a second padded run, as mail joined from two encoders has
    ]),
    want: { text: "Merhaba!" },
  },
  {
    name: "a part whose boundary never closes runs to the end",
    raw: crlf([
      "From: a@example.com",
      'Content-Type: multipart/mixed; boundary="open"',
      "",
      "--open",
      "Content-Type: text/plain",
      "",
      "still here",
    ]),
    want: { text: "still here" },
  },
  {
    name: "format=flowed joins its soft lines and unstuffs",
    raw: crlf([
      "From: a@example.com",
      "Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes",
      "",
      "Bir uzun ",
      "c\u00fcmle.",
      " From here on",
    ]),
    want: { text: "Bir uzuncümle.\nFrom here on" },
  },
  {
    name: "threading headers with comments and ids run together",
    raw: crlf([
      "From: a@example.com",
      "Message-ID:",
      " <m2@example.com>",
      "In-Reply-To: <m1@example.com> (Ayşe's message of Monday)",
      "References: <r0@example.com><r1@example.com>",
      "\t<m1@example.com>",
      "",
      "x",
    ]),
    want: {
      messageId: "<m2@example.com>",
      inReplyTo: "<m1@example.com>",
      references: ["<r0@example.com>", "<r1@example.com>", "<m1@example.com>"],
    },
  },
  {
    name: "Authentication-Results unfolded, in order",
    raw: crlf([
      "Authentication-Results: mx.example.net;",
      "\tdkim=pass header.d=example.com;",
      "  spf=pass smtp.mailfrom=example.com",
      "Authentication-Results: other.example; dkim=fail",
      "From: a@example.com",
      "",
      "x",
    ]),
    want: {
      authResults: [
        "mx.example.net;\tdkim=pass header.d=example.com;  spf=pass smtp.mailfrom=example.com",
        "other.example; dkim=fail",
      ],
    },
  },
];

for (const shape of SHAPES) {
  Deno.test(`readMail() reads ${shape.name}`, () => {
    const mail = readMail(shape.raw, shape.cap === undefined ? {} : { attachmentBytes: shape.cap });
    for (const [key, want] of Object.entries(shape.want)) {
      assert.deepEqual(mail[key as keyof IncomingMail], want, key);
    }
  });
}

Deno.test("readMail() keeps an encoded '<' or ',' in a name out of the address", () => {
  const forged = crlf([
    "From: =?UTF-8?B?" + b64("x <ayse@example.com>, y") + "?= <evil@example.net>",
    "",
    "x",
  ]);
  assert.deepEqual(readMail(forged).from, {
    address: "evil@example.net",
    name: "x <ayse@example.com>, y",
  });
  // A quoted address in the name is only a name.
  const quoted = crlf(['From: "ayse@example.com" <evil@example.net>', "", "x"]);
  assert.equal(readMail(quoted).from?.address, "evil@example.net");
  // An empty group and a list of two give no single sender.
  assert.equal(readMail(crlf(["From: undisclosed-recipients:;", "", "x"])).from, undefined);
  assert.equal(
    readMail(crlf(["From: Team: a@example.com, b@example.com;", "", "x"])).from,
    undefined,
  );
});

Deno.test("readMail() holds no reference to the raw bytes", () => {
  const mail = readMail(crlf(["From: a@example.com", "Subject: s", "", "body"]));
  const seen = new Set<unknown>();
  const walk = (v: unknown) => {
    if (v === null || typeof v !== "object" || seen.has(v)) return;
    seen.add(v);
    assert.ok(!(v instanceof Uint8Array), "a byte array is kept");
    for (const x of Object.values(v)) walk(x);
  };
  walk(mail);
});

Deno.test("parseMessage() stops splitting past MAX_DEPTH", () => {
  let raw = "From: a@example.com\r\n";
  for (let i = 0; i < MAX_DEPTH + 5; i++) {
    raw += `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`;
  }
  raw += "Content-Type: text/plain\r\n\r\ndeep\r\n";
  let part = parseMessage(enc.encode(raw));
  let depth = 0;
  while (part.parts[0] !== undefined) {
    part = part.parts[0];
    depth++;
  }
  assert.equal(depth, MAX_DEPTH);
  assert.equal(part.type, "multipart/mixed");
});

Deno.test("splitMultipart() ignores a longer boundary and a boundary not at a line start", () => {
  const body = enc.encode("--b\r\nA --b\r\n--bb\r\nB\r\n--b\r\nC\r\n--b--\r\n");
  const parts = splitMultipart(body, "b").map((p) => new TextDecoder().decode(p));
  assert.deepEqual(parts, ["A --b\r\n--bb\r\nB", "C"]);
});

Deno.test("quotedPrintable() decodes bytes, soft breaks with padding, and keeps stray '='", () => {
  const out = quotedPrintable(enc.encode("a=3Db=\r\nc=  \r\nd=ZZ=4"));
  assert.equal(new TextDecoder().decode(out), "a=bcd=ZZ=4");
});

Deno.test("base64Bytes() skips line breaks and characters outside the alphabet", () => {
  assert.equal(new TextDecoder().decode(base64Bytes("SGVs\r\nbG8*")), "Hello");
  assert.equal(base64Bytes("").length, 0);
});

Deno.test("decodeCharset() falls back for an unknown label and reads us-ascii UTF-8", () => {
  assert.equal(decodeCharset(enc.encode("şu"), "us-ascii"), "şu");
  assert.equal(decodeCharset(new Uint8Array([0xfe]), "windows-1254"), "ş");
  assert.equal(decodeCharset(new Uint8Array([0xfe]), "x-made-up"), "þ");
});

Deno.test("decodeWords() keeps text between words and a malformed word as written", () => {
  assert.equal(decodeWords("Re: =?UTF-8?Q?=C3=A7ay?= saati"), "Re: çay saati");
  assert.equal(decodeWords("=?UTF-8?X?abc?="), "=?UTF-8?X?abc?=");
  assert.equal(decodeWords("plain"), "plain");
});

Deno.test("parseParams() reads quoted values, escapes, and RFC 2231 in any order", () => {
  const p = parseParams(
    'Text/Plain; charset="UTF-8"; name="a \\"b\\".txt"; title*1*=%C4%B1; title*0*=utf-8\'tr\'%C5%9F',
  );
  assert.equal(p.value, "text/plain");
  assert.deepEqual(p.params, { charset: "UTF-8", name: 'a "b".txt', title: "şı" });
});

Deno.test("parseAddresses() reads comments, escapes and bare addresses", () => {
  assert.deepEqual(parseAddresses('"A \\"B\\"" <a@x.org>, c@y.org (C (nested))'), [
    { name: 'A "B"', address: "a@x.org" },
    { name: "C (nested)", address: "c@y.org" },
  ]);
  assert.deepEqual(parseAddresses("no address here"), []);
});

Deno.test("htmlText() drops comments and keeps list items on their lines", () => {
  assert.equal(
    htmlText("<!-- x --><ul><li>bir</li><li>iki &amp; üç</li></ul>"),
    "- bir\n- iki & üç",
  );
});
